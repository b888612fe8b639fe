/**
 * The Postgres mirror's apply path alone (issue #30, "applying ≥ 5,000 changed rows a second"):
 * the sandbox's bookings and videos as the stream's changes, each with a checkpoint record like the
 * watcher's, written through the mirror's own checkpoint and batch (src/postgres/checkpoint.ts,
 * batch.ts) into a real PostgreSQL 15 started here, with the writer lease fenced in each
 * transaction. Each change's stream state goes where the watcher puts it with the mirror's
 * checkpoint: a booking's entry to `stream_bookings` (its journal line empty, so no record row), a
 * video's id to `stream_videos` and its store's counts in a record. Shapes, on fresh tables each,
 * run alternately so a busy machine weighs on all:
 * - per change: a transaction for each change (BEGIN, the lease's fence, its rows, COMMIT);
 * - batched: consecutive changes in one transaction (multi-row upserts for the mirror's rows and
 *   the stream's tables, the records in one insert), up to BATCH_CHANGES, as the sync commits them;
 * - batched, records only: the same without the stream's tables, every change a journal line in
 *   `stream_records` instead (the checkpoint before the stream's state had tables), for comparison.
 * With `onChange` inserting a row of the partner's per change too (`BENCH_APPLY_ONCHANGE=1`).
 * `BENCH_APPLY_SHAPES` picks shapes (comma-separated: per-change, batched, records-only).
 *
 *   nice -n 10 node --import tsx bench/sync-apply.ts   BENCH_APPLY_STORES=1000 BENCH_APPLY_ROUNDS=2
 */
import { entryOf, packBooking } from '../src/events/bookings.js';
import type { PartnerEvent } from '../src/events/index.js';
import { packVideos } from '../src/events/videos.js';
import { ChangeBatch } from '../src/postgres/batch.js';
import { PostgresCheckpoint } from '../src/postgres/checkpoint.js';
import { postgresDatabase } from '../src/postgres/database.js';
import { WriterLease } from '../src/postgres/lease.js';
import { migrate } from '../src/postgres/migrations.js';
import { createSandbox } from '../src/testing/index.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';

const STORES = Number(process.env.BENCH_APPLY_STORES ?? 1_000);
const ROUNDS = Number(process.env.BENCH_APPLY_ROUNDS ?? 2);
const ON_CHANGE = process.env.BENCH_APPLY_ONCHANGE === '1';
const SHAPES = {
  'per-change': 'per change',
  batched: 'batched',
  'records-only': 'batched, records only',
} as const;
type Shape = keyof typeof SHAPES;
const CHOSEN = (process.env.BENCH_APPLY_SHAPES ?? Object.keys(SHAPES).join(','))
  .split(',')
  .filter((name): name is Shape => Object.hasOwn(SHAPES, name));

function changesOf(): PartnerEvent[] {
  const sandbox = createSandbox({ seed: 30, visitsPerWeek: 3 });
  const key = sandbox.issueKey();
  sandbox.populate(key, { locations: STORES, reservationsPerLocation: 30 });
  const at = sandbox.clock.now().toISOString();
  const changes: PartnerEvent[] = [];
  for (const b of sandbox.inspect.reservations(key)) {
    changes.push({
      id: `r-${b.reservation_id}`,
      type: 'reservation.created',
      created_at: at,
      partner_location_id: b.partner_location_id,
      data: b,
    });
  }
  for (const store of sandbox.inspect.stores(key)) {
    for (const v of sandbox.inspect.videos(key, store.partner_location_id)) {
      changes.push({
        id: `v-${v.video_id}`,
        type: 'video.published',
        created_at: at,
        partner_location_id: store.partner_location_id,
        data: v,
      });
    }
  }
  return changes;
}

async function applyAll(url: string, changes: readonly PartnerEvent[], shape: Shape): Promise<number> {
  const db = await postgresDatabase({ connectionString: url });
  const main = await db.session();
  try {
    await migrate(main, 'crp', db.name);
    await main.query('create table if not exists partner_log (event_id text not null)');
    const lease = new WriterLease('"crp"', 15_000, db.name);
    const batch = new ChangeBatch({
      schemaQuoted: '"crp"',
      database: db.name,
      onChange: ON_CHANGE
        ? async (event, tx) => void (await tx.query('insert into partner_log (event_id) values ($1)', [event.id]))
        : undefined,
    });
    const cp = new PostgresCheckpoint({
      main,
      renewal: undefined,
      lease,
      batch,
      schemaQuoted: '"crp"',
      database: db.name,
      onConfirm: async () => undefined,
    });
    const release = await cp.lock();
    // The stream numbers stores in the order it first sees them.
    const stores = new Map<string, number>();
    const storeOf = (id: string) => stores.get(id) ?? (stores.set(id, stores.size), stores.size - 1);
    const seen = new Map<number, number>();
    const started = performance.now();
    for (const change of changes) {
      batch.add(change);
      const store = storeOf(change.partner_location_id);
      if (shape === 'records-only') {
        // A journal line of the watcher's size for one booking.
        await cp.save(JSON.stringify([{ k: 'b', id: change.id, s: 'confirmed', at: change.created_at }]));
      } else if (change.type === 'video.published') {
        // As VideoState.keep(): the id to stream_videos, the store's counts stay in the line.
        const count = (seen.get(store) ?? 0) + 1;
        seen.set(store, count);
        cp.videos.hold(store, [change.data.video_id]);
        await cp.save(JSON.stringify([['v', store, packVideos({ seen: count, cur: count, prev: 0, edges: [] })]]));
      } else if (change.type === 'reservation.created') {
        // As BookingState.keep(): the entry to stream_bookings, nothing left in the line.
        const entry = entryOf(change.data, store);
        cp.bookings.hold(change.data.reservation_id, packBooking(entry), entry);
        await cp.save('[]');
      }
      if (shape === 'per-change') await cp.flush();
    }
    await cp.flush();
    const seconds = (performance.now() - started) / 1000;
    await release();
    return seconds;
  } finally {
    main.release(true);
    await db.close();
  }
}

async function main(): Promise<void> {
  const server = await startPostgresServer();
  if (!server) throw new Error('PostgreSQL 15 is needed (apt-get install postgresql-15)');
  const changes = changesOf();
  const rows = new Set(changes.map((c) => c.id)).size;
  const times = new Map<Shape, number[]>(CHOSEN.map((shape) => [shape, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const shape of CHOSEN) {
      const name = `apply_${round}_${shape.replace('-', '_')}`;
      const url = await server.database(name);
      times.get(shape)?.push(await applyAll(url, changes, shape));
      const [counted] = await server.sql(
        `select (select count(*) from crp.bookings) + (select count(*) from crp.videos) as n,
                (select count(*) from crp.stream_bookings) + (select count(*) from crp.stream_videos) as stream`,
        name,
      );
      const n = Number(counted?.n);
      if (n !== rows) throw new Error(`${shape}: ${n} rows in the tables, ${rows} expected`);
      const stream = Number(counted?.stream);
      if (stream !== (shape === 'records-only' ? 0 : rows))
        throw new Error(`${shape}: ${stream} rows in the stream's tables`);
    }
  }
  console.log(
    `## sync-apply: ${changes.length} changes (${rows} rows: bookings and videos of ${STORES} stores; with the stream's tables as many rows again there), onChange ${ON_CHANGE ? 'one insert each' : 'none'}, PostgreSQL 15 (fsync off)`,
  );
  for (const [shape, list] of times) {
    const best = Math.min(...list);
    console.log(
      `  ${SHAPES[shape].padEnd(21)}: best of ${list.length} ${best.toFixed(1)} s = ${(changes.length / best).toFixed(0)} changes/s, ${(rows / best).toFixed(0)} rows/s (all: ${list.map((t) => t.toFixed(1)).join(', ')} s)`,
    );
  }
  await server.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
