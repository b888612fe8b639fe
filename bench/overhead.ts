/**
 * Case 3, per-call overhead: `client.locations.get` vs raw fetch + JSON.parse vs ky, sequential,
 * over loopback to a sandbox in another process. The SDK as partners run it (limiter on), and
 * with `rateLimit: false`.
 */
import { startWorker } from './lib/children.js';
import { startSandbox, UNLIMITED } from './lib/sandbox.js';
import { fmt, median, percentile, type CaseResult } from './lib/stats.js';

const WARMUP = Number(process.env.BENCH_OVERHEAD_WARMUP ?? 300);
const ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_OVERHEAD_PER_ROUND ?? 400);
const TARGET = 1.1;

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  const worker = startWorker('overhead');
  try {
    const key = await sandbox.key(UNLIMITED);
    const { locationIds } = await sandbox.populate(key, { locations: 1 });
    await worker.next('ready');
    const samples = await worker.call<Record<string, number[]>>({ type: 'run', url: sandbox.url, key, locationId: locationIds[0], warmup: WARMUP, rounds: ROUNDS, perRound: PER_ROUND });
    const stats = Object.fromEntries(
      Object.entries(samples).map(([name, xs]) => [name, { median: median(xs), p10: percentile(xs, 10), p90: percentile(xs, 90), n: xs.length }]),
    );
    const base = stats.fetch?.median ?? Number.NaN;
    const ratio = (name: string) => (stats[name]?.median ?? Number.NaN) / base;
    const line = (name: string) => {
      const s = stats[name];
      return s ? `${fmt.us(s.median)} median (p10 ${fmt.us(s.p10)}, p90 ${fmt.us(s.p90)}) = ${fmt.x(ratio(name))} fetch` : 'n/a';
    };
    return {
      id: 'overhead',
      title: '3. Per-call overhead',
      setup: `${ROUNDS * PER_ROUND} sequential locations.get per client after ${WARMUP} warm-up calls, interleaved in ${ROUNDS} rounds; sandbox in another process over loopback`,
      rows: [
        { variant: 'fetch + JSON.parse', result: line('fetch') },
        { variant: 'ky', result: line('ky') },
        { variant: 'SDK (limiter on, default)', result: line('sdk'), target: `≤ ${TARGET.toFixed(2)}× fetch`, met: ratio('sdk') <= TARGET },
        { variant: 'SDK, rateLimit: false', result: line('sdk-no-limiter') },
      ],
      data: { warmup: WARMUP, rounds: ROUNDS, perRound: PER_ROUND, stats, ratios: { sdk: ratio('sdk'), sdkNoLimiter: ratio('sdk-no-limiter'), ky: ratio('ky') } },
    };
  } finally {
    await worker.stop();
    await sandbox.close();
  }
}
