/**
 * What the Postgres mirror's stream holds in memory, and its start-up after a restart (issue #30,
 * section 4, the memory and restart lines), measured on the stream alone: after a first load
 * (`once: true`), the stream's state is loaded from the mirror's checkpoint as a restart loads it
 * (its lines in `crp.stream_records`, then `crp.stream_stores`; bookings and video ids stay in their
 * tables) between two full GCs, so what is read is the stream's state only, not the sandbox's: on
 * the JS heap, and in array buffers outside it (V8's heap grows to several times what is live on
 * it, while those count once).
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
import { ChangeBatch } from '../src/postgres/batch.js';
import { PostgresCheckpoint } from '../src/postgres/checkpoint.js';
import { postgresDatabase } from '../src/postgres/database.js';
import { WriterLease } from '../src/postgres/lease.js';

const STORES = Number(process.env.BENCH_SYNC_STORES ?? 10_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const gc = () => {
  if (!global.gc) throw new Error('Run with node --expose-gc');
  global.gc();
};
/** Full collections around a pause, so what finalizers and closed sockets release is gone before a reading. */
const settled = async () => {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  return process.memoryUsage();
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
  await check.end();
  // The stream's state alone, loaded as a restart loads it, under the writer's lease.
  const db = await postgresDatabase({ connectionString: url });
  const main = await db.session();
  const cp = new PostgresCheckpoint({
    main,
    renewal: undefined,
    lease: new WriterLease('"crp"', 15_000, db.name),
    batch: new ChangeBatch({ schemaQuoted: '"crp"', database: db.name, onChange: undefined }),
    schemaQuoted: '"crp"',
    database: db.name,
    onConfirm: async () => undefined,
  });
  const release = await cp.lock();
  const before = await settled();
  const loaded = await WatchState.load(cp);
  const after = await settled();
  const heapBytes = after.heapUsed - before.heapUsed;
  const bufferBytes = after.arrayBuffers - before.arrayBuffers;
  console.error(`loaded ${loaded.stores.length} stores`);
  await release();
  main.release();
  await db.close();

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
  const perStore = (bytes: number) => `${(bytes / loaded.stores.length).toFixed(0)} B a store`;
  console.log(
    `  the stream's state as a restart loads it (WatchState.load, ${loaded.stores.length} stores): JS heap ${mb(heapBytes)} = ${perStore(heapBytes)}; array buffers ${mb(bufferBytes)} = ${perStore(bufferBytes)}`,
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
