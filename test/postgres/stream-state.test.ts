/**
 * The stream's state in the mirror's tables: the bookings (`stream_bookings`), the ids of the
 * videos delivered (`stream_videos`) and the stores with their records and video counts
 * (`stream_stores`) live there, written in the transactions that commit their changes, and
 * `stream_records` holds none of them; a checkpoint written before those tables existed is moved
 * into them at start, nothing delivered again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointInvalidError } from '../../src/index.js';
import { SCHEMA_VERSION, syncToPostgres } from '../../src/postgres/index.js';
import { WatchState } from '../../src/events/state.js';
import { packVideos, videoFamily } from '../../src/events/videos.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { expectMirrorMatches, freshDatabase, usePools } from './support.js';

const DAY = 86_400_000;

describe("syncToPostgres(): the stream's state in the tables", () => {
  const server = usePostgresServer();
  const poolOf = usePools();
  let env: SimEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  async function setUp() {
    env = await startSimEnv('msw', { visitsPerWeek: 5 });
    env.sandbox.populate(env.key, { locations: 6, reservationsPerLocation: 5 });
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    await pool.query('create table partner_log (event_id text not null)');
    const query = async (text: string) => (await pool.query(text)).rows as Record<string, unknown>[];
    const onChange = async (event: { id: string }, tx: { query(t: string, p?: unknown[]): Promise<unknown> }) => {
      await tx.query('insert into partner_log values ($1)', [event.id]);
    };
    const sync = () => syncToPostgres((env as SimEnv).client(), { connectionString: url, once: true, onChange });
    return { env, query, sync };
  }

  /** The stream's tables hold every booking (its status), video and store the mirror holds; its records none of them. */
  async function expectStateInTables(query: (text: string) => Promise<Record<string, unknown>[]>) {
    const [counts] = await query(
      `select (select count(*)::int from crp.stream_bookings) as stream_bookings,
              (select count(*)::int from crp.bookings) as bookings,
              (select count(*)::int from crp.stream_videos) as stream_videos,
              (select count(*)::int from crp.videos) as videos,
              (select count(*)::int from crp.stream_stores) as stream_stores,
              (select count(*)::int from crp.stores) as stores,
              (select count(*)::int from crp.stream_stores s join crp.stores m on m.partner_location_id = s.id
                where s.location is null) as unread,
              (select count(*)::int from crp.stream_bookings s join crp.bookings b using (reservation_id)
                where s.status <> b.status) as differing`,
    );
    expect(counts?.stream_bookings).toBeGreaterThan(0);
    expect(counts?.stream_videos).toBeGreaterThan(0);
    expect(counts).toMatchObject({
      bookings: counts?.stream_bookings,
      videos: counts?.stream_videos,
      stores: counts?.stream_stores,
      differing: 0,
      unread: 0,
    });
    const records = (await query('select record from crp.stream_records order by id')).map((r) => r.record as string);
    const ids = await query(
      `select reservation_id as id from crp.bookings union all select video_id from crp.videos
       union all select partner_location_id from crp.stores`,
    );
    for (const { id } of ids) expect(records.some((record) => record.includes(id as string))).toBe(false);
  }

  it('bookings, video ids and stores live in stream_bookings, stream_videos and stream_stores, not in stream_records; later changes come once', {
    timeout: 120_000,
  }, async () => {
    const { env, query, sync } = await setUp();
    const first = await sync();
    await expectMirrorMatches(env, query);
    await expectStateInTables(query);

    env.sandbox.clock.advance({ ms: 3 * DAY });
    const second = await sync();
    expect(second.events).toBeGreaterThan(0);
    await expectMirrorMatches(env, query);
    await expectStateInTables(query);
    expect(await query('select event_id from partner_log group by event_id having count(*) > 1')).toEqual([]);
    expect((await query('select count(*)::int as n from partner_log'))[0]?.n).toBe(first.events + second.events);
  });

  it('a checkpoint holding the bookings, video ids and stores itself (written before the tables) moves them there; nothing comes again', {
    timeout: 120_000,
  }, async () => {
    const { env, query, sync } = await setUp();
    const first = await sync();
    // The same state as the stream would have written it with no tables: the stores, their records
    // and video counts in the snapshot, the bookings and the video ids in the journal.
    const lines = (await query('select record from crp.stream_records order by id')).map((r) => r.record as string);
    const state = await WatchState.load({ load: async () => lines, save: async () => undefined });
    for (const row of await query('select store, id, location, videos from crp.stream_stores order by store')) {
      state.apply(['s', row.id as string]);
      if (row.location !== null) state.apply(['l', row.store as number, row.location as string]);
      if (row.videos !== null) state.apply(['v', row.store as number, row.videos as string]);
    }
    const snapshot = state.snapshot();
    expect(JSON.parse(snapshot).stores.length).toBe(6);
    const bookings = await query('select reservation_id, packed from crp.stream_bookings');
    const videos = await query(
      'select store, array_agg(video_id order by video_id) as ids from crp.stream_videos group by store',
    );
    const legacy = [
      ...bookings.map((b) => ['b', b.reservation_id, b.packed]),
      ...videos.map((v) => [
        'v',
        v.store,
        packVideos(state.family(videoFamily).videos(v.store as number)),
        ...(v.ids as string[]),
      ]),
    ];
    // A schema at version 2, before stream_stores: the next sync migrates it, then moves the stores there.
    await query(
      'delete from crp.stream_bookings; delete from crp.stream_videos; drop table crp.stream_stores; delete from crp.stream_records',
    );
    await query('update crp.crp_schema set version = 2');
    for (const line of [snapshot, JSON.stringify(legacy)])
      await query(`insert into crp.stream_records (record) values ('${line.replaceAll("'", "''")}')`);

    const again = await sync();
    expect(again.events - again.storeReads).toBe(0);
    await expectStateInTables(query);
    await expectMirrorMatches(env, query);
    expect((await query('select count(*)::int as n from partner_log'))[0]?.n).toBe(first.events + again.events);
    expect((await query('select version from crp.crp_schema'))[0]?.version).toBe(SCHEMA_VERSION);
  });

  it('a store row deleted by hand: the sync refuses the checkpoint, naming the store number, and writes nothing', {
    timeout: 120_000,
  }, async () => {
    const { env, query, sync } = await setUp();
    await sync();
    await query('delete from crp.stream_stores where store = 2');
    const logged = (await query('select count(*)::int as n from partner_log'))[0]?.n;
    env.sandbox.clock.advance({ ms: 3 * DAY });
    const error = await sync().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect((error as Error).message).toMatch(/the store table has no row for store number 2/);
    expect((await query('select count(*)::int as n from partner_log'))[0]?.n).toBe(logged);
  });
});
