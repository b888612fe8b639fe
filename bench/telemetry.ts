/**
 * Case 7, the cost of telemetry per call: `locations.get` without telemetry, with `openTelemetry()`
 * and no OpenTelemetry SDK registered, and with an SDK set up as in production. Sequential, over
 * loopback to a sandbox in another process.
 */
import { startWorker } from './lib/children.js';
import { startSandbox, UNLIMITED } from './lib/sandbox.js';
import { fmt, median, percentile, type CaseResult } from './lib/stats.js';

const WARMUP = Number(process.env.BENCH_TELEMETRY_WARMUP ?? 300);
const ROUNDS = Number(process.env.BENCH_TELEMETRY_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_TELEMETRY_PER_ROUND ?? 400);

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  const worker = startWorker('telemetry');
  try {
    const key = await sandbox.key(UNLIMITED);
    const { locationIds } = await sandbox.populate(key, { locations: 1 });
    await worker.next('ready');
    const samples = await worker.call<Record<string, number[]>>({
      type: 'run',
      url: sandbox.url,
      key,
      locationId: locationIds[0],
      warmup: WARMUP,
      rounds: ROUNDS,
      perRound: PER_ROUND,
    });
    const stats = Object.fromEntries(
      Object.entries(samples).map(([name, xs]) => [
        name,
        { median: median(xs), p10: percentile(xs, 10), p90: percentile(xs, 90), n: xs.length },
      ]),
    );
    const base = stats.sdk?.median ?? Number.NaN;
    const line = (name: string) => {
      const s = stats[name];
      if (!s) return 'n/a';
      const extra =
        name === 'sdk'
          ? ''
          : `, ${s.median - base >= 0 ? '+' : ''}${fmt.us(s.median - base)} = ${fmt.x(s.median / base)} the SDK alone`;
      return `${fmt.us(s.median)} median (p10 ${fmt.us(s.p10)}, p90 ${fmt.us(s.p90)})${extra}`;
    };
    return {
      id: 'telemetry',
      title: '7. Telemetry per call',
      setup: `${ROUNDS * PER_ROUND} sequential locations.get per client after ${WARMUP} warm-up calls, interleaved in ${ROUNDS} rounds; sandbox in another process over loopback`,
      rows: [
        { variant: 'SDK, no telemetry', result: line('sdk') },
        { variant: 'openTelemetry(), no OpenTelemetry SDK registered', result: line('otel-noop') },
        { variant: 'openTelemetry() with an SDK (batched spans, metrics, W3C propagation)', result: line('otel') },
      ],
      data: { warmup: WARMUP, rounds: ROUNDS, perRound: PER_ROUND, stats },
    };
  } finally {
    await worker.stop();
    await sandbox.close();
  }
}
