/**
 * Case 4, lists: 20,000 bookings (100 pages of 200) walked by a hand-written fetch loop, the same
 * loop written with ky (the SDK's target: only its own cost over ky counts) and by the SDK's
 * `for await`, with and without prefetch; first as fast as the sandbox serves, then with
 * 20 ms of latency per page and 20 ms of awaited work per page in the caller. Each walk runs in a
 * fresh process, which also measures its RSS growth.
 */
import { startWorker } from './lib/children.js';
import { startSandbox, UNLIMITED } from './lib/sandbox.js';
import { fmt, type CaseResult, type Row } from './lib/stats.js';

const LOCATIONS = Number(process.env.BENCH_LIST_LOCATIONS ?? 100);
const PER_LOCATION = 200;
const LATENCY_MS = 20;
const WORK_MS = 20;
/** Walks without latency are short and server-bound: repeat and keep each variant's best. */
const REPEATS = Number(process.env.BENCH_LIST_REPEATS ?? 2);
const MEMORY_LIMIT = 30 * 1024 * 1024;

type Variant = 'hand' | 'ky' | 'sdk' | 'sdk-prefetch' | 'sdk-no-limiter';
interface WalkResult {
  variant: Variant;
  items: number;
  pages: number;
  elapsedMs: number;
  /** The client process's CPU time over the walk. */
  cpuMs: number;
  itemsPerSecond: number;
  growth: number;
  retained: number;
  rssBefore: number;
  rssPeak: number;
}

async function walk(
  url: string,
  key: string,
  variant: Variant,
  workMs: number,
  flags: string[] = [],
): Promise<WalkResult> {
  const worker = startWorker('lists', [], ['--expose-gc', ...flags]);
  try {
    await worker.next('ready');
    return await worker.call<WalkResult>({ type: 'walk', walk: { variant, url, key, workMs } });
  } finally {
    await worker.stop();
  }
}

const VARIANTS: Variant[] = ['hand', 'ky', 'sdk', 'sdk-prefetch', 'sdk-no-limiter'];
const SLOW_VARIANTS: Variant[] = ['hand', 'sdk', 'sdk-prefetch'];
/** Diagnostic: V8's young generation capped, so RSS shows retention rather than heap sizing. */
const SMALL_YOUNG_GEN = ['--max-semi-space-size=1'];

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  try {
    const key = await sandbox.key(UNLIMITED);
    const { reservations } = await sandbox.populate(key, {
      locations: LOCATIONS,
      reservationsPerLocation: PER_LOCATION,
    });
    const best: Record<string, WalkResult> = {};
    const all: WalkResult[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const variant of VARIANTS) {
        const result = await walk(sandbox.url, key, variant, 0);
        all.push(result);
        const prior = best[variant];
        if (!prior || result.itemsPerSecond > prior.itemsPerSecond) best[variant] = result;
      }
    }
    await sandbox.latency(LATENCY_MS, '/partner/v1/reservations');
    const slow: Record<string, WalkResult> = {};
    for (const variant of SLOW_VARIANTS) slow[variant] = await walk(sandbox.url, key, variant, WORK_MS);
    await sandbox.latency(0, '/partner/v1/reservations');
    const capped = {
      hand: await walk(sandbox.url, key, 'hand', 0, SMALL_YOUNG_GEN),
      sdk: await walk(sandbox.url, key, 'sdk', 0, SMALL_YOUNG_GEN),
    };

    const ips = (r: WalkResult | undefined) => r?.itemsPerSecond ?? Number.NaN;
    const fast = (v: Variant, base: Variant = 'hand') => ips(best[v]) / ips(best[base]);
    const lag = (v: Variant) => ips(slow[v]) / ips(slow.hand);
    const line = (r: WalkResult | undefined, ratio: number, base = 'hand loop') =>
      r
        ? `${fmt.int(r.itemsPerSecond)} items/s (${fmt.ms(r.elapsedMs)}) = ${fmt.x(ratio)} ${base} · RSS +${fmt.mb(r.growth)}`
        : 'n/a';
    // CPU per page, least of every no-latency walk of a variant: the client's own cost, which other
    // processes on the machine move far less than they move wall time.
    const cpuPerPage = (v: Variant) => Math.min(...all.filter((r) => r.variant === v).map((r) => r.cpuMs / r.pages));
    const sdkWalks = [...all, ...Object.values(slow)].filter((r) => r.variant.startsWith('sdk'));
    const handWalks = [...all, ...Object.values(slow)].filter((r) => r.variant === 'hand');
    const maxGrowth = Math.max(...sdkWalks.map((r) => r.growth));
    const maxHandGrowth = Math.max(...handWalks.map((r) => r.growth));
    const maxRetained = Math.max(...sdkWalks.map((r) => r.retained));
    const rows: Row[] = [
      { variant: 'no latency: hand-written fetch loop', result: line(best.hand, 1) },
      { variant: 'no latency: hand-written ky loop', result: line(best.ky, fast('ky')) },
      {
        variant: 'no latency: SDK for await, against the ky loop',
        result: line(best.sdk, fast('sdk', 'ky'), 'ky loop'),
        target: '≥ 0.95× ky loop',
        met: fast('sdk', 'ky') >= 0.95,
      },
      { variant: 'no latency: SDK for await, against the fetch loop', result: line(best.sdk, fast('sdk')) },
      {
        variant: 'no latency: client CPU per page (least of the walks)',
        result: `ky loop ${fmt.us(cpuPerPage('ky'))}, SDK ${fmt.us(cpuPerPage('sdk'))} = ${fmt.x(cpuPerPage('sdk') / cpuPerPage('ky'))} ky loop (fetch loop ${fmt.us(cpuPerPage('hand'))})`,
      },
      { variant: 'no latency: SDK for await, prefetchPages', result: line(best['sdk-prefetch'], fast('sdk-prefetch')) },
      {
        variant: 'no latency: SDK for await, rateLimit: false',
        result: line(best['sdk-no-limiter'], fast('sdk-no-limiter')),
      },
      { variant: `${LATENCY_MS} ms latency + ${WORK_MS} ms work/page: hand loop`, result: line(slow.hand, 1) },
      {
        variant: `${LATENCY_MS} ms latency + ${WORK_MS} ms work/page: SDK for await`,
        result: line(slow.sdk, lag('sdk')),
      },
      {
        variant: `${LATENCY_MS} ms latency + ${WORK_MS} ms work/page: SDK prefetchPages`,
        result: line(slow['sdk-prefetch'], lag('sdk-prefetch')),
        target: '≥ 1.50× hand loop',
        met: lag('sdk-prefetch') >= 1.5,
      },
      {
        variant: 'memory: peak RSS growth, worst SDK walk',
        result: `+${fmt.mb(maxGrowth)} (hand loop +${fmt.mb(maxHandGrowth)}); heap retained after GC ≤ ${fmt.mb(maxRetained)}`,
        target: '< 30 MB',
        met: maxGrowth < MEMORY_LIMIT,
      },
      {
        variant: 'memory, young generation capped (--max-semi-space-size=1)',
        result: `SDK +${fmt.mb(capped.sdk.growth)}, hand loop +${fmt.mb(capped.hand.growth)} peak RSS`,
      },
    ];
    return {
      id: 'lists',
      title: '4. Lists',
      setup: `${fmt.int(reservations)} bookings, ${(LOCATIONS * PER_LOCATION) / 200} pages of 200, each walk in a fresh process; no-latency walks: best of ${REPEATS}; latency by the sandbox's delay fault`,
      rows,
      data: {
        reservations,
        latencyMs: LATENCY_MS,
        workMs: WORK_MS,
        repeats: REPEATS,
        noLatency: best,
        withLatency: slow,
        capped,
        all,
        cpuPerPageMs: { hand: cpuPerPage('hand'), ky: cpuPerPage('ky'), sdk: cpuPerPage('sdk') },
        ratios: {
          sdkOverKy: fast('sdk', 'ky'),
          ky: fast('ky'),
          sdk: fast('sdk'),
          sdkPrefetch: fast('sdk-prefetch'),
          sdkNoLimiter: fast('sdk-no-limiter'),
          latencySdk: lag('sdk'),
          latencyPrefetch: lag('sdk-prefetch'),
        },
        maxGrowth,
        maxHandGrowth,
        maxRetained,
      },
    };
  } finally {
    await sandbox.close();
  }
}
