/**
 * What the Postgres mirror's stream holds in memory, and its start-up after a restart (issue #30,
 * section 4, the memory and restart lines), measured on the stream alone: after a first load
 * (`once: true`), the checkpoint's lines in `crp.stream_records` are replayed into a `WatchState`
 * between two full GCs, so the heap read is the stream's state only, not the sandbox's. With the
 * mirror's tables, what the lines hold is all the stream keeps but its bounded caches.
 *
 * Restart: a new `syncToPostgres()` on the loaded tables, from the call to the end of its first
 * poll (migrations checked, lease taken, the checkpoint read, one poll). The heap of the whole
 * process around a restart is not a measure of the stream: the sandbox's own heap moves more.
 *
 *   node --expose-gc --import tsx bench/sync-state.ts    BENCH_SYNC_STORES=10000
 */
import { createSandbox } from '../src/testing/index.js';
import { PartnerClient } from '../src/index.js';
import { syncToPostgres } from '../src/postgres/index.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import pg from 'pg';
import { MINUTE, simulatedClient } from './lib/simulated-client.js';
import { WatchState } from '../src/events/state.js';

const memoryCheckpointOf = (lines: string[]) => ({ load: async () => lines, save: async () => undefined });

const STORES = Number(process.env.BENCH_SYNC_STORES ?? 10_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const gc = () => {
  if (!global.gc) throw new Error('Run with node --expose-gc');
  global.gc();
};

async function main(): Promise<void> {
  const server = await startPostgresServer();
  if (!server) throw new Error('PostgreSQL 15 is needed (apt-get install postgresql-15)');
  const url = await server.database('state');
  const sandbox = createSandbox({
    seed: 30,
    rateLimitClock: 'simulated',
    rateLimit: { limit: 6_000, windowMs: MINUTE },
    visitsPerWeek: 3,
  });
  const key = sandbox.issueKey();
  sandbox.populate(key, { locations: STORES, reservationsPerLocation: 30 });
  const { client } = simulatedClient(PartnerClient, sandbox, key);
  const loadWall = performance.now();
  const first = await syncToPostgres(client, { connectionString: url, once: true, budgetShare: 0.5 });
  const loadS = (performance.now() - loadWall) / 1000;
  const check = new pg.Pool({ connectionString: url });
  const checkpointBytes = Number(
    (await check.query('select coalesce(sum(length(record)), 0) as n from crp.stream_records')).rows[0].n,
  );
  // The stream's state alone: what the checkpoint's lines give when replayed in memory.
  const lines = (await check.query<{ record: string }>('select record from crp.stream_records order by id')).rows.map(
    (r) => r.record,
  );
  await check.end();
  gc();
  const beforeState = process.memoryUsage().heapUsed;
  const replayed = await WatchState.load(memoryCheckpointOf(lines));
  gc();
  const stateBytes = process.memoryUsage().heapUsed - beforeState;
  lines.length = 0;
  console.error(`replayed ${replayed.stores.length} stores`);

  const stop = new AbortController();
  const restartAt = performance.now();
  let startupMs: number | undefined;
  await syncToPostgres(client, {
    connectionString: url,
    budgetShare: 0.5,
    signal: stop.signal,
    onProgress: () => {
      if (startupMs !== undefined) return;
      startupMs = performance.now() - restartAt;
      stop.abort();
    },
  });
  console.log(
    `## sync-state: ${STORES} stores × 30 bookings, first load ${first.events} changes in ${loadS.toFixed(0)} s real`,
  );
  console.log(
    `  the checkpoint replayed in memory (WatchState.load): ${mb(stateBytes)} = ${(stateBytes / STORES / 1024).toFixed(2)} KB a store`,
  );
  console.log(`  checkpoint in crp.stream_records: ${mb(checkpointBytes)}`);
  console.log(`  start-up after a restart (to the end of the first poll): ${((startupMs ?? 0) / 1000).toFixed(2)} s`);
  await client.close();
  await server.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
