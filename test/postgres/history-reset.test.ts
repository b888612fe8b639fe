/**
 * A service whose history goes back under the mirror's checkpoint: the sandbox reset through its
 * control API (the same key, a new empty account, the service's clock back at its start) between
 * two syncs, then filled with a different account. The stream's tables (`stream_bookings`,
 * `stream_videos`) then hold exactly the new account's bookings and video ids (a stale row would
 * make the stream take a new booking with a reused id for one it knows), the mirror's rows are the
 * new account's alone, each of its changes reached the rows and the partner's table once, and a
 * restart delivers nothing again. With the reset's transaction cut, the restart does it all over.
 */
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { PartnerEventWithStores } from '../../src/events/index.js';
import { syncToPostgres } from '../../src/postgres/index.js';
import type { PopulateOptions } from '../../src/testing/index.js';
import { coverage } from '../events/coverage.js';
import { type Service, startService } from '../events/reset-service.js';
import type { SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { cutPool, testPool } from './cut-pool.js';
import { expectMirrorMatches, freshDatabase } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OLD: PopulateOptions = { locations: 6, reservationsPerLocation: 5 };
const NEW: PopulateOptions = { locations: 4, reservationsPerLocation: 7 };

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const ids = async (query: Query, text: string) => (await query(text)).map((r) => String(Object.values(r)[0])).sort();

/** The stream's tables hold the service's bookings (with their status) and video ids, no other. */
async function expectStreamTablesMatch(service: Service, query: Query): Promise<void> {
  const { emulator, key } = service;
  const bookings = emulator.inspect.reservations(key).map((b) => b.reservation_id);
  expect(await ids(query, 'select reservation_id from crp.stream_bookings')).toEqual(bookings.sort());
  const [differing] = await query(
    `select count(*)::int as n from crp.stream_bookings s join crp.bookings b using (reservation_id) where s.status <> b.status`,
  );
  expect(differing?.n).toBe(0);
  const videos = emulator.inspect
    .stores(key)
    .flatMap((s) => emulator.inspect.videos(key, s.partner_location_id).map((v) => v.video_id))
    .sort();
  expect(await ids(query, 'select video_id from crp.stream_videos')).toEqual(videos);
}

/** Every change of the service up to `upTo` covered by the events delivered, none of them twice. */
function expectEachChangeOnce(service: Service, delivered: PartnerEventWithStores[], upTo: number): void {
  const events = delivered.flatMap((e) => (e.type === 'location.updated' ? [] : [e]));
  const report = coverage(service.emulator.inspect.changes(service.key), events, upTo);
  expect(report.changes).toBeGreaterThan(20);
  expect({ missing: report.missing.length, duplicates: report.duplicates }).toEqual({ missing: 0, duplicates: 0 });
}

describe('syncToPostgres(): a history reset under the checkpoint (stream_bookings, stream_videos)', () => {
  const server = usePostgresServer();
  let service: Service | undefined;
  const pools: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });

  async function setUp(pool?: pg.Pool) {
    service = await startService({ seed: 30, visitsPerWeek: 10 });
    const s = service;
    s.emulator.populate(s.key, OLD);
    // The first sync sees the service days after its start, so the reset takes its clock back.
    s.emulator.clock.advance({ ms: 3 * DAY });
    const url = await freshDatabase(server());
    const own = testPool(url);
    pools.push(own);
    await own.query('create table partner_log (n serial primary key, event_id text not null, type text not null)');
    const query: Query = async (text, params) => (await own.query(text, params)).rows as Record<string, unknown>[];
    const delivered: PartnerEventWithStores[] = [];
    const onChange = async (
      event: PartnerEventWithStores,
      tx: { query(t: string, p?: unknown[]): Promise<unknown> },
    ) => {
      await tx.query('insert into partner_log (event_id, type) values ($1, $2)', [event.id, event.type]);
      delivered.push(event);
    };
    // A restart after a cut waits out the lease the cut connection held.
    const sync = (via?: pg.Pool, running?: { signal: AbortSignal }) =>
      syncToPostgres(s.client, {
        ...(via ? { pool: via } : { connectionString: url }),
        ...(running
          ? { signal: running.signal, maxLag: 2 * HOUR, minInterval: 10 * 60_000, maxInterval: HOUR }
          : { once: true }),
        onChange,
        standby: true,
        leaseMs: 1_000,
      });
    return { s, url, query, sync, delivered, pool };
  }

  /** Rows of partner_log past `after`, per event id: each once, and as many as the sync reported. */
  async function expectLoggedOnce(query: Query, after: number, events: number): Promise<void> {
    expect(
      await query('select event_id from partner_log where n > $1 group by event_id having count(*) > 1', [after]),
    ).toEqual([]);
    expect((await query('select count(*)::int as n from partner_log where n > $1', [after]))[0]?.n).toBe(events);
  }

  const lastLogged = async (query: Query) =>
    Number((await query('select coalesce(max(n), 0)::int as n from partner_log'))[0]?.n);

  it('the stream tables and the mirror hold the new account alone; each change once; a restart delivers nothing again', {
    timeout: 180_000,
  }, async () => {
    const { s, query, sync, delivered } = await setUp();
    await sync();
    const env = { sandbox: s.emulator, key: s.key } as unknown as SimEnv;
    await expectMirrorMatches(env, query);
    await expectStreamTablesMatch(s, query);
    const oldBookings = new Set(await ids(query, 'select reservation_id from crp.bookings'));
    const oldVideos = new Set(await ids(query, 'select video_id from crp.videos'));
    const oldStores = new Set(await ids(query, 'select partner_location_id from crp.stores'));

    await s.reset(NEW);
    // The new account lives a while before the mirror looks: visits, videos, status changes.
    s.emulator.clock.advance({ ms: 2 * DAY });
    const newBookings = s.emulator.inspect.reservations(s.key).map((b) => b.reservation_id);
    // Reused ids (the seeded sandbox starts its sequences again) and ids the old account alone had.
    expect(newBookings.some((id) => oldBookings.has(id))).toBe(true);
    expect([...oldBookings].some((id) => !newBookings.includes(id))).toBe(true);

    const before = await lastLogged(query);
    const from = delivered.length;
    const upTo = s.emulator.clock.now().getTime();
    const second = await sync();
    expect(second.events).toBeGreaterThan(0);
    await expectStreamTablesMatch(s, query);
    // The old account's rows are gone with its history; what a reused id holds is the new account's.
    await expectMirrorMatches(env, query);
    expectEachChangeOnce(s, delivered.slice(from), upTo);
    await expectLoggedOnce(query, before, second.events);
    expect(oldStores.size).toBeGreaterThan(s.emulator.inspect.stores(s.key).length);
    expect(oldVideos.size).toBeGreaterThan(0);

    // A restart goes on from the reset's checkpoint: nothing delivered again, the tables unchanged.
    const afterSecond = await lastLogged(query);
    const third = await sync();
    expect(third.events - third.storeReads).toBe(0);
    await expectLoggedOnce(query, afterSecond, third.events);
    await expectStreamTablesMatch(s, query);
    await expectMirrorMatches(env, query);
  });

  it('the transaction that clears the tables cut: the restart leaves nothing of the old account, delivers nothing twice', {
    timeout: 180_000,
  }, async () => {
    const ready = await setUp();
    const { s, query, sync } = ready;
    const cut = cutPool(ready.url);
    pools.push(cut);
    await sync(cut.pool);
    const env = { sandbox: s.emulator, key: s.key } as unknown as SimEnv;
    await expectMirrorMatches(env, query);
    const oldStream = await ids(query, 'select reservation_id from crp.stream_bookings');
    await s.reset(NEW);
    s.emulator.clock.advance({ ms: 2 * DAY });

    const before = await lastLogged(query);
    cut.cutBefore(/delete from "crp"\.stream_bookings/);
    await expect(sync(cut.pool)).rejects.toThrow();
    expect(cut.cut).toBe(true);
    // Nothing of that transaction: the old account's stream rows and the partner's table as they were.
    expect(await lastLogged(query)).toBe(before);
    expect(await ids(query, 'select reservation_id from crp.stream_bookings')).toEqual(oldStream);

    cut.cutAt(undefined);
    const again = await sync(cut.pool);
    expect(again.events).toBeGreaterThan(0);
    await expectLoggedOnce(query, before, again.events);
    await expectStreamTablesMatch(s, query);
    await expectMirrorMatches(env, query);

    const afterAgain = await lastLogged(query);
    const third = await sync(cut.pool);
    expect(third.events - third.storeReads).toBe(0);
    await expectLoggedOnce(query, afterAgain, third.events);
    await expectStreamTablesMatch(s, query);
  });

  it('while the sync runs: the old rows go, the stream tables hold the new account alone, each change once', {
    timeout: 180_000,
  }, async () => {
    const { s, query, sync, delivered } = await setUp();
    const controller = new AbortController();
    const start = s.client.clock.now();
    let reset: Promise<void> | undefined;
    let from = -1;
    let upTo = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    s.onWait = () => {
      const now = s.client.clock.now();
      if (!reset && now >= start + 12 * HOUR) {
        from = delivered.length;
        reset = s.reset(NEW).then(() => {
          stopAt = s.client.clock.now() + 36 * HOUR;
        });
      }
      if (now >= stopAt && !controller.signal.aborted) {
        upTo = s.emulator.clock.now().getTime() - 2 * HOUR - HOUR;
        controller.abort();
      }
    };
    await sync(undefined, controller);
    await reset;
    expect(from).toBeGreaterThan(0);
    await expectStreamTablesMatch(s, query);
    await expectMirrorMatches({ sandbox: s.emulator, key: s.key } as unknown as SimEnv, query);
    expectEachChangeOnce(s, delivered.slice(from), upTo);
  });
});
