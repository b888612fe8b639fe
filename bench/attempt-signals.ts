/**
 * What an attempt's signal costs the heap, side by side in one run (src/core/http.ts). ky joins the
 * signal it is given to one of its own (`AbortSignal.any`), and fetch's Request listens to the
 * joined signal until a finalizer removes that listener after a full collection; until then Node
 * holds the joined signal, the Request and their listeners strongly, so every call's survive the
 * scavenges and are promoted. The transport aborts its attempt's signal once the attempt is over.
 *
 * Each variant runs in a fresh process (`node --expose-gc`) making the same sequential calls
 * through ky to a local HTTP server in that process: `signal kept` (a signal per call, left as it
 * is), `signal aborted after` (what the transport does), `no signal` (ky's own only). Reported:
 * full (mark-compact) collections, peak heap and RSS, the heap live after the calls and a full
 * collection, and the time a call takes.
 *
 *   node --import tsx bench/attempt-signals.ts        BENCH_SIGNAL_CALLS=30000
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import ky from 'ky';

const VARIANTS = ['signal kept', 'signal aborted after', 'no signal'] as const;
type Variant = (typeof VARIANTS)[number];
const CALLS = Number(process.env.BENCH_SIGNAL_CALLS ?? 30_000);
const OVER = Object.freeze({ attempt: 'over' });

interface Result {
  majorGcs: number;
  peakHeapMb: number;
  peakRssMb: number;
  liveMb: number;
  usPerCall: number;
}

async function child(variant: Variant): Promise<Result> {
  const body = JSON.stringify({ partner_location_id: 'loc_1', status: 'active', name: 'A store' });
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const api = ky.create({ prefixUrl: `http://127.0.0.1:${port}`, retry: 0, timeout: false });
  let majorGcs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        majorGcs++;
  });
  observer.observe({ entryTypes: ['gc'] });
  let peakHeap = 0;
  let peakRss = 0;
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    if (variant === 'no signal') await api.get('store').text();
    else {
      const controller = new AbortController();
      await api.get('store', { signal: controller.signal }).text();
      if (variant === 'signal aborted after') controller.abort(OVER);
    }
    if (i % 500 === 0) {
      const memory = process.memoryUsage();
      peakHeap = Math.max(peakHeap, memory.heapTotal);
      peakRss = Math.max(peakRss, memory.rss);
    }
  }
  const usPerCall = ((performance.now() - started) * 1000) / CALLS;
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  global.gc?.();
  const liveMb = process.memoryUsage().heapUsed / 2 ** 20;
  observer.disconnect();
  server.close();
  return { majorGcs, peakHeapMb: peakHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20, liveMb, usPerCall };
}

function main(): void {
  const variant = process.argv[2] as Variant | undefined;
  if (variant) {
    child(variant).then((result) => process.stdout.write(JSON.stringify(result)));
    return;
  }
  console.log(`## attempt-signals: ${CALLS} sequential calls through ky to a local server, a fresh process each`);
  console.log('| variant | full GCs | peak heap | peak RSS | live after | µs a call |');
  console.log('|---|---|---|---|---|---|');
  for (const name of VARIANTS) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), name], {
      encoding: 'utf8',
      env: process.env,
    });
    if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
    const r = JSON.parse(run.stdout) as Result;
    console.log(
      `| ${name} | ${r.majorGcs} | ${r.peakHeapMb.toFixed(1)} MB | ${r.peakRssMb.toFixed(1)} MB | ${r.liveMb.toFixed(1)} MB | ${r.usPerCall.toFixed(0)} |`,
    );
  }
}

main();
