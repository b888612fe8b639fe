/**
 * The Postgres mirror at fleet scale (issue #30, section 4): `syncToPostgres()` against a sandbox on
 * simulated time (N stores × 30 bookings, a raised limit of 6,000 a minute, its rate-limit windows
 * on the simulated clock) and a real PostgreSQL 15 started here (test/helpers/postgres-server.ts).
 * The sandbox runs in a process of its own (bench/workers/fleet-sandbox.ts, over a loopback port).
 *
 * Where the sync runs (`BENCH_SYNC_PROCESS`):
 * - unset (or `in-process`): in this process, from the sources under tsx. Its memory is the sync's
 *   plus tsx's (about 40 MB RSS) and the bench's bookkeeping (the delivered events, the counts).
 * - `build`: in a child of its own, plain `node --expose-gc` (no tsx) on the built package
 *   (bench/workers/fleet-sync.mjs importing dist/index.js and dist/postgres/index.js): the syncing
 *   process as partners run it, nothing else in it; the figure for the memory line. It needs
 *   `npm run build` first. Its sleeps advance the sandbox's clock through this process, and its
 *   calls, progress reports and delivered changes come here over IPC to be counted and printed.
 *   `BENCH_SYNC_NODE_FLAGS` adds node flags to that child (e.g. `--max-old-space-size=192`: V8
 *   otherwise lets the heap grow to several times what is live before it collects).
 * The phases (load, steady state, restart) are bench/lib/fleet-sync-phases.mjs in both modes; the
 * report names the process measured.
 *
 * First load (`once: true`): calls made against the calls it needs (booking pages, one store read
 * and one content read per store with a completed visit, the billing pages), simulated time against
 * the time those calls take at the budget share (the physical limit), 429s, progress reports,
 * changes applied a second (wall clock), peak RSS and heap of the syncing process and of the sandbox's.
 * Start-up after a restart: from the call to its first call answered, and to the end of its first pass
 * (a second restart when that pass was a full reconciliation). Steady state:
 * `BENCH_SYNC_HOURS` simulated hours after it, with the busiest minute's share of the budget and
 * detection lag p99 against the sandbox's change log. `BENCH_SYNC_WALL_S` caps the first load's
 * real time, `BENCH_SYNC_STEADY_WALL_S` the steady state's: what does not fit is reported as far as it got.
 * `BENCH_SYNC_LIMIT` sets the rate limit (default 6,000 a minute).
 * `BENCH_SYNC_HEAP_SNAPSHOT=<file>` writes a heap snapshot of the syncing process after a GC at 95 % of the
 * load's calls (`BENCH_SYNC_HEAP_SNAPSHOT_AT`, a fraction, moves it), the stream's state then whole (for Chrome DevTools' Memory tab, or
 * `node --import tsx bench/lib/heap-summary.ts <file>`).
 * `BENCH_SYNC_ALLOC_PROFILE=<prefix>` samples what each phase allocates, garbage included, to
 * `<prefix>.load.heapprofile` and `<prefix>.steady.heapprofile` (`node --import tsx bench/lib/alloc-summary.ts <file>`);
 * with `BENCH_SYNC_SNAPSHOT_LIVE_MB=<mb>`, also a heap snapshot of each phase the first time a full GC leaves
 * more than that live (what a phase holds at its peak). Both cost memory and time: not for the figures.
 *
 *   nice -n 10 node --expose-gc --import tsx bench/sync-fleet.ts    BENCH_SYNC_STORES=10000 BENCH_SYNC_HOURS=24 BENCH_SYNC_WALL_S=3600
 *   npm run build && BENCH_SYNC_PROCESS=build nice -n 10 node --expose-gc --import tsx bench/sync-fleet.ts
 */
import { PartnerClient } from '../src/index.js';
import { syncToPostgres } from '../src/postgres/index.js';
import type { SyncProgress } from '../src/postgres/index.js';
import type { SandboxChange } from '../src/testing/index.js';
import { coverage, type DeliveredEvent } from '../test/events/coverage.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import pg from 'pg';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from './lib/children.js';
import {
  type ChangeEvent,
  type FleetSyncPhases,
  fleetSyncPhases,
  type ProcessMemory,
  processMemory,
} from './lib/fleet-sync-phases.mjs';
import { ROOT } from './lib/paths.js';
import {
  MINUTE,
  delivered,
  type RemoteSandbox,
  remoteSimulatedClient,
  startRemoteSandbox,
} from './lib/simulated-client.js';
import { percentile } from './lib/stats.js';

const STORES = Number(process.env.BENCH_SYNC_STORES ?? 10_000);
const HOURS = Number(process.env.BENCH_SYNC_HOURS ?? 24);
const WALL_S = Number(process.env.BENCH_SYNC_WALL_S ?? 3_600);
const STEADY_WALL_S = Number(process.env.BENCH_SYNC_STEADY_WALL_S ?? 3_600);
const PROCESS = process.env.BENCH_SYNC_PROCESS ?? 'in-process';
if (PROCESS !== 'in-process' && PROCESS !== 'build')
  throw new Error(`BENCH_SYNC_PROCESS is 'build' (a child on dist/) or 'in-process' (the default), not '${PROCESS}'`);
// A smaller account under a limit cut in the same proportion stands in for a larger one: every cost
// of the steady state grows with the stores, so 10,000 stores at 600 a minute take the simulated
// minutes 100,000 take at 6,000, in a tenth of the real time.
const LIMIT = Number(process.env.BENCH_SYNC_LIMIT ?? 6_000);
const SHARE = 0.5;
const MAX_LAG = 15 * 60_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const memoryLine = (m: ProcessMemory) =>
  `RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}`;

interface ChildMemory {
  peakRss: number;
  rss: number;
  heapUsed: number;
}

/** The calls of the syncing process, wherever it runs: in all, by path, by simulated minute, 429s. */
const counted = {
  calls: 0,
  throttled: 0,
  byPath: new Map<string, number>(),
  perMinute: new Map<number, number>(),
  /** When (performance.now()) the first call since it was last cleared was answered. */
  firstAt: undefined as number | undefined,
};
function countCall(path: string, status: number, minute: number): void {
  const [pathname = '', query = ''] = path.split('?');
  const filters = [...new URLSearchParams(query)].filter(([name]) => name !== 'cursor' && name !== 'limit');
  const filter = filters.map(([name, value]) => `${name}=${name === 'status' ? value : '…'}`).join('&');
  const shape = pathname.replace(/\/locations\/[^/]+/, '/locations/{id}') + (filter ? `?${filter}` : '');
  counted.calls++;
  counted.firstAt ??= performance.now();
  counted.byPath.set(shape, (counted.byPath.get(shape) ?? 0) + 1);
  counted.perMinute.set(minute, (counted.perMinute.get(minute) ?? 0) + 1);
  if (status === 429) counted.throttled++;
}

/** The sync's phases, where they run: the simulated clock, the process's memory, which process it is. */
interface Syncing extends FleetSyncPhases {
  /** The process, in the report's lines. */
  name: string;
  /** The process in full, in the report's header. */
  process: string;
  now(): number;
  memory(gc?: boolean): Promise<ProcessMemory>;
  close(): Promise<void>;
}

function syncHere(sandbox: RemoteSandbox, key: string, connectionString: string): Syncing {
  const { client, clock } = remoteSimulatedClient(PartnerClient, sandbox, key, (path, response, minute) =>
    countCall(path, response.status, minute),
  );
  return {
    ...fleetSyncPhases({ syncToPostgres, client, clock, connectionString, budgetShare: SHARE, maxLag: MAX_LAG }),
    name: 'this process, the sources under tsx',
    process: `this process (pid ${process.pid}: the sources under tsx, with the bench's bookkeeping)`,
    now: () => clock.now(),
    memory: async (gc) => processMemory(gc),
    close: () => client.close(),
  };
}

/** The build the child runs: there, and not older than the sources (checked before anything is started). */
function checkBuilt(): void {
  const built = join(ROOT, 'dist/postgres/index.js');
  if (!existsSync(built)) throw new Error('BENCH_SYNC_PROCESS=build runs the built package: run `npm run build` first');
  // The .ts files only: the build itself writes src/testing/http/openapi.json after dist/.
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  const newest = Math.max(...sources.map((file) => statSync(join(ROOT, 'src', file)).mtimeMs));
  if (newest > statSync(built).mtimeMs)
    console.error('warning: src/ is newer than dist/: `npm run build` to measure it');
}

async function syncInChild(sandbox: RemoteSandbox, key: string, connectionString: string): Promise<Syncing> {
  // The child's clock: each of its sleeps is relayed here, so this copy is always the same as its own.
  let now = sandbox.startMs;
  const options = { url: sandbox.url, key, startMs: now, connectionString, budgetShare: SHARE, maxLag: MAX_LAG };
  const flags = (process.env.BENCH_SYNC_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const worker = startWorker('fleet-sync.mjs', [JSON.stringify(options)], ['--expose-gc', ...flags]);
  worker.answer('advance', async (m) => {
    const after = await sandbox.worker.call<number>({ type: 'advance', ms: m.ms });
    now = Math.max(now, after);
    return after;
  });
  worker.on('call', (m) => countCall(m.path as string, m.status as number, m.minute as number));
  // The listeners of the phase under way (one at a time).
  let onLoadProgress: (progress: SyncProgress, memory: ProcessMemory) => void = () => undefined;
  let onStart = () => {};
  let onSteadyProgress: (memory: ProcessMemory, progress: SyncProgress) => void = () => undefined;
  let onChange: (event: ChangeEvent) => void = () => undefined;
  worker.on('progress', (m) => onLoadProgress(m.progress as SyncProgress, m.memory as ProcessMemory));
  worker.on('start', () => onStart());
  worker.on('steady', (m) => onSteadyProgress(m.memory as ProcessMemory, m.progress as SyncProgress));
  worker.on('change', (m) => onChange(m.event as ChangeEvent));
  await worker.next('ready');
  const first = await worker.call<{ pid: number; execArgv: string[] }>({ type: 'memory' });
  return {
    name: 'a child, plain node on dist/',
    process: `a child of its own (pid ${first.pid}: node ${first.execArgv.join(' ')} bench/workers/fleet-sync.mjs on dist/)`,
    now: () => now,
    memory: (gc) => worker.call<ProcessMemory>({ type: 'memory', gc }),
    load: ({ onProgress, ...rest }) => {
      onLoadProgress = onProgress;
      return worker.call({ type: 'load', ...rest });
    },
    steady: (phase) => {
      ({ onStart, onChange } = phase);
      onSteadyProgress = phase.onProgress;
      return worker.call({ type: 'steady', end: phase.end, hours: phase.hours, wallS: phase.wallS });
    },
    restart: () => worker.call({ type: 'restart' }),
    close: async () => {
      await worker.call({ type: 'close' }).catch(() => undefined);
      await worker.stop();
    },
  };
}

async function main(): Promise<void> {
  if (PROCESS === 'build') checkBuilt();
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
  const sync = PROCESS === 'build' ? await syncInChild(sandbox, key, url) : syncHere(sandbox, key, url);
  const clock = { now: () => sync.now() };
  const { byPath, perMinute } = counted;
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
  const base = await sync.memory(true);

  // First load.
  const loadStart = clock.now();
  const loadWall = performance.now();
  let lastPrint = 0;
  let reports = 0;
  let reportGapS = 0;
  let lastReport = performance.now();
  const { result: first, complete } = await sync.load({
    wallS: WALL_S,
    snapshot: process.env.BENCH_SYNC_HEAP_SNAPSHOT,
    snapshotAt: Number(process.env.BENCH_SYNC_HEAP_SNAPSHOT_AT ?? 0.95),
    needed,
    onProgress: (p, m) => {
      reports++;
      reportGapS = Math.max(reportGapS, (performance.now() - lastReport) / 1000);
      lastReport = performance.now();
      if (performance.now() - lastPrint > 30_000) {
        lastPrint = performance.now();
        console.error(
          `  load: ${p.events} changes, ${p.calls} calls (${((p.calls / needed) * 100).toFixed(0)} % of needed), ${((clock.now() - loadStart) / MINUTE).toFixed(1)} simulated min, ${((performance.now() - loadWall) / 1000).toFixed(0)} s real, ${memoryLine(m)}`,
        );
      }
    },
  });
  const loadWallS = (performance.now() - loadWall) / 1000;
  const loadSimMin = (clock.now() - loadStart) / MINUTE;
  const loadCalls = counted.calls;
  const { peakRss: loadRss, peakHeap: loadHeap } = await sync.memory();
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
    `## sync-fleet: ${STORES} stores × 30 bookings (${account.bookings} bookings), limit ${LIMIT}/min, budgetShare ${SHARE}; sandbox in its own process; sync in ${sync.process}`,
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
    `  429s: ${counted.throttled}; busiest minute ${loadBusiest} calls (${((loadBusiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
  );
  console.log(
    `  progress: ${reports} reports, at most ${reportGapS.toFixed(1)} s real apart; last: ${first.events} changes, ${first.calls} calls, ${first.storeReads} store reads`,
  );
  console.log(
    `  real time ${loadWallS.toFixed(0)} s: ${(first.events / loadWallS).toFixed(0)} changes/s applied (up to 1,000 a transaction, with the checkpoint), ${(loadCalls / loadWallS).toFixed(0)} calls/s`,
  );
  console.log(`  rows: ${JSON.stringify(rows)}; checkpoint ${mb(checkpointBytes)} in crp.stream_records`);
  const afterLoad = await sync.memory(true);
  console.log(
    `  syncing process (${sync.name}): peak RSS ${mb(loadRss)}, peak heap ${mb(loadHeap)}; before the sync RSS ${mb(base.rss)}, heap ${mb(base.heapUsed)}; ` +
      `after the load and a GC heap ${mb(afterLoad.heapUsed)}, RSS ${mb(afterLoad.rss)}`,
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
  byPath.clear();
  let reconciliations = { first: -1, last: 0 };
  const steadyCalls = counted.calls;
  const steadyThrottled = counted.throttled;
  const events: DeliveredEvent[] = [];
  let startupCalls = 0;
  const steadyWall = performance.now();
  let lastSteadyPrint = performance.now();
  const { startupMs } = await sync.steady({
    end,
    hours: HOURS,
    wallS: STEADY_WALL_S,
    onStart: () => {
      startupCalls = counted.calls - steadyCalls;
    },
    onProgress: (m, p) => {
      if (reconciliations.first < 0) reconciliations = { first: p.reconciliations, last: p.reconciliations };
      reconciliations.last = p.reconciliations;
      if (performance.now() - lastSteadyPrint > 60_000) {
        lastSteadyPrint = performance.now();
        console.error(
          `  steady: ${((clock.now() - steadyFrom) / 60 / MINUTE).toFixed(1)} simulated h, ${((performance.now() - steadyWall) / 1000).toFixed(0)} s real, RSS ${mb(m.rss)}`,
        );
      }
    },
    onChange: (event) => {
      const d = delivered(event);
      if (d) events.push(d);
    },
  });
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
      `  calls: ${counted.calls - steadyCalls}, 429s: ${counted.throttled - steadyThrottled}; busiest minute ${busiest} (${((busiest / (LIMIT * SHARE)) * 100).toFixed(0)} % of the budget, ${((busiest / LIMIT) * 100).toFixed(0)} % of the limit)`,
    );
    console.log(
      `  calls by path: ${JSON.stringify(Object.fromEntries(byPath))}; full reconciliations completed: ${reconciliations.last - Math.max(0, reconciliations.first)}`,
    );
    // By kind and by half hour: what a restart leaves to do lands at the start.
    const p99Of = (subset: SandboxChange[]) => {
      const lags = coverage(subset, events, steadyEnd - MAX_LAG).lagsMs;
      return lags.length === 0 ? '-' : `${(percentile(lags, 99) / MINUTE).toFixed(2)} min (${lags.length})`;
    };
    const halfHours = Array.from({ length: Math.ceil(HOURS * 2) }, (_, i) =>
      p99Of(changes.filter((c) => Math.floor((Date.parse(c.at) - steadyFrom) / (30 * MINUTE)) === i)),
    );
    console.log(
      `  detection lag p99: ${(p99 / MINUTE).toFixed(2)} min, max ${(Math.max(0, ...report.lagsMs) / MINUTE).toFixed(2)} min (maxLag ${MAX_LAG / MINUTE} min); ` +
        `bookings ${p99Of(changes.filter((c) => c.type !== 'video.published'))}, videos ${p99Of(changes.filter((c) => c.type === 'video.published'))}; by half hour ${halfHours.join(', ')}`,
    );
    // A restart in the steady state. The stop may have cut a full reconciliation short, or one may
    // be due: then its first pass is that reconciliation, not start-up work, and a second restart
    // right after it (none due then) measures the start-up alone.
    for (let attempt = 1; attempt <= 2; attempt++) {
      const before = counted.calls;
      counted.firstAt = undefined;
      const at = performance.now();
      const restarted = await sync.restart();
      const firstCallS = counted.firstAt === undefined ? NaN : (counted.firstAt - at) / 1000;
      // Counted from each start.
      const reconciled = restarted.reconciliations > 0;
      console.log(
        `  start-up after a restart in the steady state: ${firstCallS.toFixed(1)} s to its first call answered (state read, lease taken); ` +
          `${((restarted.ms ?? 0) / 1000).toFixed(1)} s to the end of its first pass, ${counted.calls - before} calls${reconciled ? ' (a full reconciliation: due, or cut short by the stop)' : ' (a poll)'}`,
      );
      if (!reconciled) break;
    }
  }
  const endSandbox = await sandboxMemory();
  const whole = await sync.memory();
  console.log(
    `  syncing process (${sync.name}) over the whole run: peak RSS ${mb(whole.peakRss)}, peak heap ${mb(whole.peakHeap)}; sandbox process peak RSS ${mb(endSandbox.peakRss)}`,
  );
  await finish();

  async function finish(): Promise<void> {
    await sync.close();
    await check.end();
    await sandbox.close();
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
