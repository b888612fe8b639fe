/**
 * The Postgres mirror as partners run it, for bench/sync-fleet.ts (`BENCH_SYNC_PROCESS=build`):
 * plain `node` (no tsx) on the BUILT package (`npm run build` → dist/), so that this process's
 * memory is the sync's alone. Driven over IPC by the bench; the phases are
 * bench/lib/fleet-sync-phases.mjs, shared with the bench's in-process mode.
 *
 * The sandbox runs in another child of the bench (bench/workers/fleet-sandbox.ts): the calls go to
 * its loopback port, and a sleep advances its clock through the bench (`advance`, asked of the
 * parent). Each call's simulated minute, path and status go to the bench, which counts them; each
 * change delivered in the steady state goes there too, for detection lag.
 *
 * argv: a JSON object { url, key, startMs, connectionString, budgetShare, maxLag }.
 */
import { PartnerClient } from '../../dist/index.js';
import { syncToPostgres } from '../../dist/postgres/index.js';
import { fleetSyncPhases, processMemory } from '../lib/fleet-sync-phases.mjs';
import { askParent, serveParent } from '../lib/serve-parent.mjs';

const options = JSON.parse(process.argv[2] ?? '{}');
const send = (message) => process.send?.(message);

// As remoteSimulatedClient and its counting fetch (bench/lib/simulated-client.ts), in plain JavaScript:
// only this client moves the sandbox's clock, so `now()` is kept here and a sleep advances both; a
// call's minute is the one it began in. The bench counts the calls (`countCall` in bench/sync-fleet.ts).
let now = options.startMs;
const clock = {
  now: () => now,
  sleep: async (ms, signal) => {
    now = Math.max(now, await askParent({ type: 'advance', ms }));
    if (signal?.aborted) throw signal.reason;
  },
};
const client = new PartnerClient({
  apiKey: options.key,
  baseUrl: options.url,
  clock,
  fetch: async (input, init) => {
    const minute = Math.floor(clock.now() / 60_000);
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await fetch(request);
    const url = new URL(request.url);
    send({ type: 'call', minute, path: url.pathname + url.search, status: response.status });
    return response;
  },
});
const phases = fleetSyncPhases({
  syncToPostgres,
  client,
  clock,
  connectionString: options.connectionString,
  budgetShare: options.budgetShare,
  maxLag: options.maxLag,
});

serveParent({
  memory: (m) => ({ ...processMemory(m.gc === true), execArgv: process.execArgv, pid: process.pid }),
  load: (m) =>
    phases.load({
      wallS: m.wallS,
      snapshot: m.snapshot,
      snapshotAt: m.snapshotAt,
      needed: m.needed,
      onProgress: (progress, memory) => send({ type: 'progress', progress, memory }),
    }),
  steady: (m) =>
    phases.steady({
      end: m.end,
      hours: m.hours,
      wallS: m.wallS,
      onStart: () => send({ type: 'start' }),
      onProgress: (memory, progress) => send({ type: 'steady', memory, progress }),
      onChange: (event) =>
        send({
          type: 'change',
          event: { id: event.id, type: event.type, created_at: event.created_at, data: event.data },
        }),
    }),
  restart: () => phases.restart(),
  close: async () => {
    await client.close();
    setImmediate(() => process.exit(0));
    return true;
  },
});

// Gone with the bench, also when it dies.
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
