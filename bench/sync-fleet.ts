/**
 * The Postgres mirror at fleet scale (issue #30, section 4): `syncToPostgres()` from the sources
 * against a sandbox on simulated time (N stores × 30 bookings, a raised limit of 6,000 a minute,
 * its rate-limit windows on the simulated clock) and a real PostgreSQL 15 started here
 * (test/helpers/postgres-server.ts). The sandbox runs in a process of its own
 * (bench/workers/fleet-sandbox.ts, over a loopback port), so this process's memory is the sync's.
 *
 * First load (`once: true`): calls made against the calls it needs (booking pages, one store read
 * and one content read per store with a completed visit, the billing pages), simulated time against
 * the time those calls take at the budget share (the physical limit), 429s, progress reports,
 * changes applied a second (wall clock), peak RSS and heap of this process and of the sandbox's.
 * Start-up after a restart: from the call to the end of the first poll. Steady state:
 * `BENCH_SYNC_HOURS` simulated hours after it, with the busiest minute's share of the budget and
 * detection lag p99 against the sandbox's change log. `BENCH_SYNC_WALL_S` caps the first load's
 * real time, `BENCH_SYNC_STEADY_WALL_S` the steady state's: what does not fit is reported as far as it got.
 * `BENCH_SYNC_HEAP_SNAPSHOT=<file>` writes a heap snapshot of this process after a GC at 95 % of the
 * load's calls, the stream's state then whole (for Chrome DevTools' Memory tab, or
 * `node --import tsx bench/lib/heap-summary.ts <file>`).
 *
 *   nice -n 10 node --expose-gc --import tsx bench/sync-fleet.ts    BENCH_SYNC_STORES=10000 BENCH_SYNC_HOURS=24 BENCH_SYNC_WALL_S=3600
 */
import { PartnerClient } from '../src/index.js';
import { syncToPostgres } from '../src/postgres/index.js';
import type { SandboxChange } from '../src/testing/index.js';
import { coverage, type DeliveredEvent } from '../test/events/coverage.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import pg from 'pg';
import { writeHeapSnapshot } from 'node:v8';
import { MINUTE, delivered, remoteSimulatedClient, startRemoteSandbox } from './lib/simulated-client.js';
import { percentile } from './lib/stats.js';

const STORES = Number(process.env.BENCH_SYNC_STORES ?? 10_000);
const HOURS = Number(process.env.BENCH_SYNC_HOURS ?? 24);
const WALL_S = Number(process.env.BENCH_SYNC_WALL_S ?? 3_600);
const STEADY_WALL_S = Number(process.env.BENCH_SYNC_STEADY_WALL_S ?? 3_600);
const LIMIT = 6_000;
const SHARE = 0.5;
const MAX_LAG = 15 * 60_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const memory = () => {
  const m = process.memoryUsage();
  return `RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}`;
};
const peakRss = () => process.resourceUsage().maxRSS * 1024;
/** The most heap this process used, sampled every 100 ms of real time (V8 has no peak counter). */
let peakHeap = 0;
const heapSampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 100);
heapSampler.unref();

interface ChildMemory {
  peakRss: number;
  rss: number;
  heapUsed: number;
}

async function main(): Promise<void> {
  const server = await startPostgresServer();
  if (!server) throw new Error('PostgreSQL 15 is needed (apt-get install postgresql-15)');
  const url = await server.database('fleet');
  const sandbox = await startRemoteSandbox({ seed: 30, limit: LIMIT, visitsPerWeek: 3 });
  const key = await sandbox.issueKey();
  const populated = await sandbox.worker.call<{ reservations: number; ms: number }>({
    type: 'populate',
    key,
    options: { locations: STORES, reservationsPerLocation: 30 },
  });
  const sandboxMemory = () => sandbox.worker.call<ChildMemory>({ type: 'memory' });
  console.error(
    `populated ${STORES} stores in ${(populated.ms / 1000).toFixed(0)} s (sandbox process RSS ${mb((await sandboxMemory()).rss)})`,
  );
  let calls = 0;
  let throttled = 0;
  const byPath = new Map<string, number>();
  const { client, clock, perMinute } = remoteSimulatedClient(PartnerClient, sandbox, key, (path, response) => {
    const shape = path.replace(/\/locations\/[^/]+/, '/locations/{id}');
    calls++;
    byPath.set(shape, (byPath.get(shape) ?? 0) + 1);
    if (response.status === 429) throttled++;
  });
  const account = await sandbox.worker.call<{ bookings: number; stores: number; withVisit: number; oldest: string }>({
    type: 'account',
    key,
  });
  const now = new Date(clock.now());
  const months =
    (now.getUTCFullYear() - Number(account.oldest.slice(0, 4))) * 12 +
    now.getUTCMonth() +
    1 -
    Number(account.oldest.slice(5, 7)) +
    1;
  const bookingPages = Math.ceil(account.bookings / 200);
  const billingPages = months * Math.ceil(account.stores / 200);
  const needed = bookingPages + account.stores + account.withVisit + billingPages;
  const physicalMin = needed / (LIMIT * SHARE);
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  const baseHeap = process.memoryUsage().heapUsed;

  // First load.
  const loadStop = new AbortController();
  const wallCap = setTimeout(() => loadStop.abort(), WALL_S * 1000);
  const loadStart = clock.now();
  const loadWall = performance.now();
  let lastPrint = 0;
  let reports = 0;
  let reportGapS = 0;
  let lastReport = performance.now();
  let snapshot = process.env.BENCH_SYNC_HEAP_SNAPSHOT;
  const first = await syncToPostgres(client, {
    connectionString: url,
    once: true,
    budgetShare: SHARE,
    signal: loadStop.signal,
    onProgress: (p) => {
      reports++;
      reportGapS = Math.max(reportGapS, (performance.now() - lastReport) / 1000);
      lastReport = performance.now();
      if (snapshot && p.calls >= 0.95 * needed) {
        global.gc?.();
        console.error(`  heap snapshot at ${p.calls} calls: ${writeHeapSnapshot(snapshot)}`);
        snapshot = undefined;
      }
      if (performance.now() - lastPrint > 30_000) {
        lastPrint = performance.now();
        console.error(
          `  load: ${p.events} changes, ${p.calls} calls (${((p.calls / needed) * 100).toFixed(0)} % of needed), ${((clock.now() - loadStart) / MINUTE).toFixed(1)} simulated min, ${((performance.now() - loadWall) / 1000).toFixed(0)} s real, ${memory()}`,
        );
      }
    },
  });
  clearTimeout(wallCap);
  const complete = !loadStop.signal.aborted;
  const loadWallS = (performance.now() - loadWall) / 1000;
  const loadSimMin = (clock.now() - loadStart) / MINUTE;
  const loadCalls = calls;
  const loadRss = peakRss();
  const loadHeap = peakHeap;
  const loadSandbox = await sandboxMemory();
  const check = new pg.Pool({ connectionString: url });
  const count = async (table: string) =>
    Number((await check.query(`select count(*) as n from crp.${table}`)).rows[0].n);
  const rows = {
    bookings: await count('bookings'),
    videos: await count('videos'),
    stores: await count('stores'),
    billing: await count('billing_monthly'),
  };
  const checkpointBytes = Number(
    (await check.query('select coalesce(sum(length(record)), 0) as n from crp.stream_records')).rows[0].n,
  );
  const loadBusiest = Math.max(...perMinute.values());
  console.log(
    `## sync-fleet: ${STORES} stores × 30 bookings (${account.bookings} bookings), limit ${LIMIT}/min, budgetShare ${SHARE}; sandbox in its own process`,
  );
  console.log(
    `first load ${complete ? 'complete' : `NOT complete: stopped after ${WALL_S} s real (BENCH_SYNC_WALL_S)`}`,
  );
  console.log(
    `  calls: ${loadCalls} (needed: ${needed} = ${bookingPages} booking pages + ${account.stores} store reads + ${account.withVisit} content reads + ${months} months × ${Math.ceil(account.stores / 200)} billing pages) = ${(loadCalls / needed).toFixed(2)} × needed`,
  );
  console.log(
    `  simulated time: ${loadSimMin.toFixed(1)} min; physical limit (needed ÷ ${SHARE} × ${LIMIT}/min): ${physicalMin.toFixed(1)} min = ${(loadSimMin / physicalMin).toFixed(2)} ×`,
  );
  console.log(`  calls by path: ${JSON.stringify(Object.fromEntries(byPath))}`);
  console.log(
    `  429s: ${throttled}; busiest minute ${loadBusiest} calls (${((loadBusiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
  );
  console.log(
    `  progress: ${reports} reports, at most ${reportGapS.toFixed(1)} s real apart; last: ${first.events} changes, ${first.calls} calls, ${first.storeReads} store reads`,
  );
  console.log(
    `  real time ${loadWallS.toFixed(0)} s: ${(first.events / loadWallS).toFixed(0)} changes/s applied (up to 1,000 a transaction, with the checkpoint), ${(loadCalls / loadWallS).toFixed(0)} calls/s`,
  );
  console.log(`  rows: ${JSON.stringify(rows)}; checkpoint ${mb(checkpointBytes)} in crp.stream_records`);
  global.gc?.();
  console.log(
    `  syncing process: peak RSS ${mb(loadRss)}, peak heap ${mb(loadHeap)}; before the sync RSS ${mb(baseRss)}, heap ${mb(baseHeap)}; ` +
      `after the load and a GC heap ${mb(process.memoryUsage().heapUsed)}, RSS ${mb(process.memoryUsage().rss)}`,
  );
  console.log(
    `  sandbox process (not the sync's): peak RSS ${mb(loadSandbox.peakRss)}, heap ${mb(loadSandbox.heapUsed)} at the end of the load`,
  );
  if (!complete) {
    await finish();
    return;
  }

  // Start-up after a restart: from the call to the end of the first poll (checkpoint read, lease,
  // one poll). Then the steady state: HOURS simulated hours of the simulation, in the same run.
  const steadyFrom = clock.now();
  const end = steadyFrom + HOURS * 60 * MINUTE;
  perMinute.clear();
  const steadyCalls = calls;
  const steadyThrottled = throttled;
  const events: DeliveredEvent[] = [];
  const stop = new AbortController();
  const steadyCap = setTimeout(() => stop.abort(), STEADY_WALL_S * 1000);
  let startupMs: number | undefined;
  let startupCalls = 0;
  const restart = performance.now();
  const steadyWall = performance.now();
  let lastSteadyPrint = performance.now();
  await syncToPostgres(client, {
    connectionString: url,
    budgetShare: SHARE,
    maxLag: MAX_LAG,
    signal: stop.signal,
    onProgress: () => {
      if (startupMs === undefined) {
        startupMs = performance.now() - restart;
        startupCalls = calls - steadyCalls;
      }
      if (HOURS <= 0 || clock.now() >= end) stop.abort();
      if (performance.now() - lastSteadyPrint > 60_000) {
        lastSteadyPrint = performance.now();
        console.error(
          `  steady: ${((clock.now() - steadyFrom) / 60 / MINUTE).toFixed(1)} simulated h, ${((performance.now() - steadyWall) / 1000).toFixed(0)} s real, RSS ${mb(process.memoryUsage().rss)}`,
        );
      }
    },
    onChange: (event) => {
      const d = delivered(event);
      if (d) events.push(d);
      if (clock.now() >= end) stop.abort();
    },
  });
  clearTimeout(steadyCap);
  const steadyEnd = Math.min(end, clock.now());
  console.log(
    `  start-up after a restart at the end of the load (to the end of the first poll): ${((startupMs ?? 0) / 1000).toFixed(1)} s, ${startupCalls} calls in that poll`,
  );
  if (HOURS > 0) {
    const changes = await sandbox.worker.call<SandboxChange[]>({ type: 'changes', key, after: steadyFrom });
    const report = coverage(changes, events, steadyEnd - MAX_LAG);
    const p99 = percentile(report.lagsMs, 99);
    const busiest = Math.max(...perMinute.values());
    const steadyWallS = (performance.now() - steadyWall) / 1000;
    console.log(
      `steady state: ${((steadyEnd - steadyFrom) / 60 / MINUTE).toFixed(1)} of ${HOURS} simulated hours (BENCH_SYNC_STEADY_WALL_S caps the real time) in ${steadyWallS.toFixed(0)} s real, ${report.changes} changes, ${report.missing.length} missing, ${events.length} events, ${report.duplicates} duplicates`,
    );
    console.log(
      `  calls: ${calls - steadyCalls}, 429s: ${throttled - steadyThrottled}; busiest minute ${busiest} (${((busiest / (LIMIT * SHARE)) * 100).toFixed(0)} % of the budget, ${((busiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
    );
    console.log(
      `  detection lag p99: ${(p99 / MINUTE).toFixed(2)} min, max ${(Math.max(0, ...report.lagsMs) / MINUTE).toFixed(2)} min (maxLag ${MAX_LAG / MINUTE} min)`,
    );
  }
  if (HOURS > 0) {
    // A restart in the steady state, where no reconciliation is due at once.
    const again = new AbortController();
    const before = calls;
    const at = performance.now();
    let ms: number | undefined;
    await syncToPostgres(client, {
      connectionString: url,
      budgetShare: SHARE,
      maxLag: MAX_LAG,
      signal: again.signal,
      onProgress: () => {
        ms ??= performance.now() - at;
        again.abort();
      },
    });
    console.log(
      `  start-up after a restart in the steady state (to the end of the first poll): ${((ms ?? 0) / 1000).toFixed(1)} s, ${calls - before} calls in that poll`,
    );
  }
  const endSandbox = await sandboxMemory();
  console.log(
    `  syncing process over the whole run: peak RSS ${mb(peakRss())}, peak heap ${mb(peakHeap)}; sandbox process peak RSS ${mb(endSandbox.peakRss)}`,
  );
  await finish();

  async function finish(): Promise<void> {
    await client.close();
    await check.end();
    await sandbox.close();
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
