/**
 * Case 3, per-call overhead: `client.locations.get` vs raw fetch + JSON.parse vs a bare ky call,
 * sequential, over loopback to a sandbox in another process; then the same with 5 ms of server
 * latency (what a call costs next to a real network). The SDK as partners run it (limiter on),
 * and with `rateLimit: false`.
 */
import { startWorker } from './lib/children.js';
import { startSandbox, UNLIMITED } from './lib/sandbox.js';
import { fmt, median, percentile, type CaseResult } from './lib/stats.js';

const WARMUP = Number(process.env.BENCH_OVERHEAD_WARMUP ?? 300);
const ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_OVERHEAD_PER_ROUND ?? 400);
const KY_TARGET = 1.1;
const LATENCY_MS = 5;
const LATENCY_TARGET = 1.02;
const LATENCY_PER_ROUND = Number(process.env.BENCH_OVERHEAD_LATENCY_PER_ROUND ?? 100);

type Stats = Record<string, { median: number; p10: number; p90: number; n: number }>;

function summarize(samples: Record<string, number[]>): Stats {
  return Object.fromEntries(
    Object.entries(samples).map(([name, xs]) => [
      name,
      { median: median(xs), p10: percentile(xs, 10), p90: percentile(xs, 90), n: xs.length },
    ]),
  );
}

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  const worker = startWorker('overhead');
  try {
    const key = await sandbox.key(UNLIMITED);
    const { locationIds } = await sandbox.populate(key, { locations: 1 });
    await worker.next('ready');
    const job = {
      type: 'run',
      url: sandbox.url,
      key,
      locationId: locationIds[0],
      warmup: WARMUP,
      rounds: ROUNDS,
      perRound: PER_ROUND,
      cpu: true,
    };
    const raw = await worker.call<Record<string, number[]>>(job);
    const stats = summarize(raw);
    await sandbox.latency(LATENCY_MS, `/partner/v1/locations/${encodeURIComponent(locationIds[0] as string)}`);
    const slow = summarize(
      await worker.call<Record<string, number[]>>({ ...job, warmup: 20, perRound: LATENCY_PER_ROUND, cpu: false }),
    );
    await sandbox.latency(0, '');
    const ratio = (s: Stats, name: string, base = 'fetch') =>
      (s[name]?.median ?? Number.NaN) / (s[base]?.median ?? Number.NaN);
    const leastCpu = (name: string) => Math.min(...(raw[`cpu:${name}`] ?? [Number.NaN]));
    const line = (s: Stats, name: string) => {
      const x = s[name];
      return x
        ? `${fmt.us(x.median)} median (p10 ${fmt.us(x.p10)}, p90 ${fmt.us(x.p90)}) = ${fmt.x(ratio(s, name))} fetch, ${fmt.x(ratio(s, name, 'ky'))} ky`
        : 'n/a';
    };
    return {
      id: 'overhead',
      title: '3. Per-call overhead',
      setup: `${ROUNDS * PER_ROUND} sequential locations.get per client after ${WARMUP} warm-up calls, interleaved in ${ROUNDS} rounds; sandbox in another process over loopback; then ${ROUNDS * LATENCY_PER_ROUND} each with ${LATENCY_MS} ms of server latency`,
      rows: [
        { variant: 'fetch + JSON.parse', result: line(stats, 'fetch') },
        { variant: 'bare ky call (instance, retry and timeout off)', result: line(stats, 'ky') },
        {
          variant: 'SDK (limiter on, default)',
          result: line(stats, 'sdk'),
          target: `≤ ${KY_TARGET.toFixed(2)}× bare ky`,
          met: ratio(stats, 'sdk', 'ky') <= KY_TARGET,
        },
        { variant: 'SDK, rateLimit: false', result: line(stats, 'sdk-no-limiter') },
        {
          variant: 'client CPU per call (least of the rounds)',
          result: `bare ky ${fmt.us(leastCpu('ky'))}, SDK ${fmt.us(leastCpu('sdk'))} = ${fmt.x(leastCpu('sdk') / leastCpu('ky'))} ky (fetch ${fmt.us(leastCpu('fetch'))})`,
        },
        { variant: `${LATENCY_MS} ms latency: fetch + JSON.parse`, result: line(slow, 'fetch') },
        { variant: `${LATENCY_MS} ms latency: bare ky call`, result: line(slow, 'ky') },
        {
          variant: `${LATENCY_MS} ms latency: SDK`,
          result: line(slow, 'sdk'),
          target: `≤ ${LATENCY_TARGET.toFixed(2)}× fetch`,
          met: ratio(slow, 'sdk') <= LATENCY_TARGET,
        },
      ],
      data: {
        warmup: WARMUP,
        rounds: ROUNDS,
        perRound: PER_ROUND,
        stats,
        latency: { ms: LATENCY_MS, perRound: LATENCY_PER_ROUND, stats: slow },
        cpuPerCallMs: {
          fetch: leastCpu('fetch'),
          ky: leastCpu('ky'),
          sdk: leastCpu('sdk'),
          sdkNoLimiter: leastCpu('sdk-no-limiter'),
        },
        ratios: {
          sdkOverKy: ratio(stats, 'sdk', 'ky'),
          sdk: ratio(stats, 'sdk'),
          sdkNoLimiter: ratio(stats, 'sdk-no-limiter'),
          ky: ratio(stats, 'ky'),
          sdkWithLatency: ratio(slow, 'sdk'),
        },
      },
    };
  } finally {
    await worker.stop();
    await sandbox.close();
  }
}
