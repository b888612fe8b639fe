/**
 * The Postgres mirror at fleet scale (issue #30, section 4): `syncToPostgres()` from the sources,
 * against an in-process sandbox on simulated time (N stores × 30 bookings, a raised limit of
 * 6,000 a minute) and a real PostgreSQL 15 started here (test/helpers/postgres-server.ts).
 *
 * First load (`once: true`): calls made against the calls it needs (booking pages, one store read
 * and one content read per store with a completed visit, the billing pages), simulated time against
 * the time those calls take at the budget share, 429s, rows applied a second (wall clock), peak RSS.
 * Steady state: `BENCH_SYNC_HOURS` simulated hours of the sandbox's simulation after it, with the
 * busiest minute's share of the budget and detection lag p99 (against the sandbox's change log).
 * `BENCH_SYNC_WALL_S` caps the first load's real time: a load that does not fit is reported as far
 * as it got.
 *
 *   node --expose-gc --import tsx bench/sync-fleet.ts    BENCH_SYNC_STORES=10000 BENCH_SYNC_HOURS=24 BENCH_SYNC_WALL_S=1200
 */
import { createSandbox } from '../src/testing/index.js';
import { PartnerClient } from '../src/index.js';
import { syncToPostgres } from '../src/postgres/index.js';
import { coverage, type DeliveredEvent } from '../test/events/coverage.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import pg from 'pg';
import { MINUTE, simulatedClient } from './lib/simulated-client.js';

const STORES = Number(process.env.BENCH_SYNC_STORES ?? 10_000);
const HOURS = Number(process.env.BENCH_SYNC_HOURS ?? 24);
const WALL_S = Number(process.env.BENCH_SYNC_WALL_S ?? 1_200);
const LIMIT = 6_000;
const SHARE = 0.5;
const MAX_LAG = 15 * 60_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

async function main(): Promise<void> {
  const server = await startPostgresServer();
  if (!server) throw new Error('PostgreSQL 15 is needed (apt-get install postgresql-15)');
  const url = await server.database('fleet');
  const sandbox = createSandbox({
    seed: 30,
    rateLimitClock: 'simulated',
    rateLimit: { limit: LIMIT, windowMs: MINUTE },
    visitsPerWeek: 3,
  });
  const key = sandbox.issueKey();
  const populateStarted = performance.now();
  sandbox.populate(key, { locations: STORES, reservationsPerLocation: 30 });
  global.gc?.();
  const baseRss = process.memoryUsage().rss;
  const baseHeap = process.memoryUsage().heapUsed;
  console.error(
    `populated ${STORES} stores in ${((performance.now() - populateStarted) / 1000).toFixed(0)} s; RSS ${mb(process.memoryUsage().rss)}`,
  );
  let calls = 0;
  let throttled = 0;
  const byPath = new Map<string, number>();
  const { client, clock, perMinute } = simulatedClient(PartnerClient, sandbox, key, (path, response) => {
    const shape = path.replace(/\/locations\/[^/]+/, '/locations/{id}');
    calls++;
    byPath.set(shape, (byPath.get(shape) ?? 0) + 1);
    if (response.status === 429) throttled++;
  });
  const bookings = sandbox.inspect.reservations(key);
  const stores = sandbox.inspect.stores(key);
  const withVisit = new Set(bookings.filter((b) => b.status === 'completed').map((b) => b.partner_location_id)).size;
  const oldest = bookings.map((b) => b.created_at).sort()[0] ?? '';
  const now = new Date(clock.now());
  const months =
    (now.getUTCFullYear() - Number(oldest.slice(0, 4))) * 12 + now.getUTCMonth() + 1 - Number(oldest.slice(5, 7)) + 1;
  const needed = Math.ceil(bookings.length / 200) + stores.length + withVisit + months * Math.ceil(stores.length / 200);
  const physicalMin = needed / (LIMIT * SHARE);

  // First load.
  const loadStop = new AbortController();
  const wallCap = setTimeout(() => loadStop.abort(), WALL_S * 1000);
  const loadStart = clock.now();
  const loadWall = performance.now();
  let lastPrint = 0;
  const first = await syncToPostgres(client, {
    connectionString: url,
    once: true,
    budgetShare: SHARE,
    signal: loadStop.signal,
    onProgress: (p) => {
      if (performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        console.error(
          `  load: ${p.events} changes, ${p.calls} calls, ${((clock.now() - loadStart) / MINUTE).toFixed(0)} simulated min, ${((performance.now() - loadWall) / 1000).toFixed(0)} s real, RSS ${mb(process.memoryUsage().rss)}`,
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
    `## sync-fleet: ${STORES} stores × 30 bookings (${bookings.length} bookings), limit ${LIMIT}/min, budgetShare ${SHARE}`,
  );
  console.log(
    `first load ${complete ? 'complete' : `NOT complete: stopped after ${WALL_S} s real (BENCH_SYNC_WALL_S)`}`,
  );
  console.log(
    `  calls: ${loadCalls} (needed: ${needed} = ${Math.ceil(bookings.length / 200)} booking pages + ${stores.length} store reads + ${withVisit} content reads + ${months} months × ${Math.ceil(stores.length / 200)} billing pages) = ${(loadCalls / needed).toFixed(2)} × needed`,
  );
  console.log(
    `  simulated time: ${loadSimMin.toFixed(1)} min; physical limit (needed ÷ ${SHARE} × ${LIMIT}/min): ${physicalMin.toFixed(1)} min = ${(loadSimMin / physicalMin).toFixed(2)} ×`,
  );
  console.log(`  calls by path: ${JSON.stringify(Object.fromEntries(byPath))}`);
  console.log(
    `  429s: ${throttled}; busiest minute ${loadBusiest} calls (${((loadBusiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
  );
  console.log(
    `  applied: ${first.events} changes in ${loadWallS.toFixed(0)} s real = ${(first.events / loadWallS).toFixed(0)} changes/s (up to 1,000 a transaction, with the checkpoint)`,
  );
  console.log(
    `  rows: ${JSON.stringify(rows)}; checkpoint ${mb(checkpointBytes)} in crp.stream_records; peak RSS (sandbox included) ${mb(loadRss)}`,
  );
  global.gc?.();
  console.log(
    `  memory: RSS ${mb(baseRss)} with the sandbox populated, before the sync; after the load ${mb(process.memoryUsage().rss)} ` +
      `(heap ${mb(baseHeap)} → ${mb(process.memoryUsage().heapUsed)} after a GC: the sync's own is the difference)`,
  );
  if (complete) {
    // Start-up after a restart: from the call to the end of the first poll (checkpoint read and parsed, lease, one poll).
    const restartStop = new AbortController();
    const restartAt = performance.now();
    let firstPoll: number | undefined;
    await syncToPostgres(client, {
      connectionString: url,
      budgetShare: SHARE,
      maxLag: MAX_LAG,
      signal: restartStop.signal,
      onProgress: () => {
        firstPoll ??= performance.now() - restartAt;
        restartStop.abort();
      },
    });
    global.gc?.();
    console.log(
      `  start-up after a restart (to the end of the first poll): ${((firstPoll ?? 0) / 1000).toFixed(1)} s; heap after it ${mb(process.memoryUsage().heapUsed)}, RSS ${mb(process.memoryUsage().rss)}`,
    );
  }
  if (!complete || HOURS <= 0) {
    await check.end();
    await server.stop();
    return;
  }

  // Start-up after a restart: from the call to the first progress report (checkpoint read, lease, first poll).
  // Steady state: HOURS simulated hours of the simulation.
  const steadyFrom = clock.now();
  const end = steadyFrom + HOURS * 60 * MINUTE;
  perMinute.clear();
  const steadyCalls = calls;
  const events: DeliveredEvent[] = [];
  const stop = new AbortController();
  let startupMs: number | undefined;
  const restart = performance.now();
  await syncToPostgres(client, {
    connectionString: url,
    budgetShare: SHARE,
    maxLag: MAX_LAG,
    signal: stop.signal,
    onProgress: () => {
      startupMs ??= performance.now() - restart;
      if (clock.now() >= end) stop.abort();
    },
    onChange: (event) => {
      // The store family's events are store records, not changes of the sandbox's change log.
      if (event.type === 'location.updated') return;
      const d = event.data as unknown as DeliveredEvent['data'];
      events.push({
        id: event.id,
        type: event.type,
        created_at: event.created_at,
        data: {
          reservation_id: d.reservation_id,
          status: d.status,
          acknowledged_kind: d.acknowledged_kind,
          video_id: d.video_id,
        },
      });
      if (clock.now() >= end) stop.abort();
    },
  });
  const changes = sandbox.inspect.changes(key).filter((c) => Date.parse(c.at) > steadyFrom);
  const report = coverage(changes, events, end - MAX_LAG);
  const sorted = [...report.lagsMs].sort((a, b) => a - b);
  const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  const busiest = Math.max(...perMinute.values());
  console.log(
    `steady state: ${HOURS} simulated hours, ${report.changes} changes, ${report.missing.length} missing, ${events.length} events`,
  );
  console.log(
    `  calls: ${calls - steadyCalls}; busiest minute ${busiest} (${((busiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
  );
  console.log(`  detection lag p99: ${(p99 / MINUTE).toFixed(2)} min (maxLag ${MAX_LAG / MINUTE} min)`);
  console.log(
    `  start-up after a restart (to the end of the first poll): ${((startupMs ?? 0) / 1000).toFixed(1)} s; peak RSS ${mb(peakRss())}`,
  );
  await client.close();
  await check.end();
  await server.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
