/**
 * syncToPostgres() against a real PostgreSQL 15 started here: a first load fills the tables as
 * the service has them, a later run catches up, the partner's onChange statements commit once per
 * change, migrations run once under a lock and refuse a newer schema or a table altered by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointLockedError } from '../../src/index.js';
import { MirrorDatabaseError, SCHEMA_VERSION, syncToPostgres } from '../../src/postgres/index.js';
import { migrate } from '../../src/postgres/migrations.js';
import { applyEvent, upsertStores } from '../../src/postgres/rows.js';
import type { PartnerEvent } from '../../src/events/index.js';
import type { Location } from '../../src/index.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { expectMirrorMatches, freshDatabase, usePools } from './support.js';

const DAY = 86_400_000;

describe('syncToPostgres() on a real PostgreSQL', () => {
  const server = usePostgresServer();
  const poolOf = usePools();
  let env: SimEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('once: fills stores, bookings, videos and billing as the service has them, and catches up on a later run; onChange once per change', {
    timeout: 120_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 5 });
    env.sandbox.populate(env.key, { locations: 6, reservationsPerLocation: 5 });
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    await pool.query('create table partner_log (event_id text not null, kind text not null)');
    const onChange = async (
      event: { id: string; type: string },
      tx: { query(text: string, params?: unknown[]): Promise<unknown> },
    ) => {
      await tx.query('insert into partner_log (event_id, kind) values ($1, $2)', [event.id, event.type]);
    };
    const first = await syncToPostgres(env.client(), { connectionString: url, once: true, onChange });
    expect(first.events).toBeGreaterThan(30);
    expect(first.database).toBe(`127.0.0.1:${server().port}/${url.split('/').pop()}`);
    const query = async (text: string) => (await pool.query(text)).rows;
    await expectMirrorMatches(env, query);
    const stored = await query('select data from crp.stores limit 1');
    const data = stored[0]?.data as { partner_location_id: string } | undefined;
    expect(data).toBeDefined();
    expect(data).toEqual(env.sandbox.inspect.store(env.key, data?.partner_location_id ?? ''));

    env.sandbox.clock.advance({ ms: 3 * DAY });
    const second = await syncToPostgres(env.client(), { connectionString: url, once: true, onChange });
    expect(second.events).toBeGreaterThan(0);
    await expectMirrorMatches(env, query);
    const log = await query(
      'select event_id, count(*)::int as n from partner_log group by event_id having count(*) > 1',
    );
    expect(log).toEqual([]);
    expect((await query('select count(*)::int as n from partner_log'))[0]?.n).toBe(first.events + second.events);
  });

  it('onChange that throws: nothing of its batch is committed (the changes before it neither), the sync rejects with the error, and they come again', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    await pool.query('create table partner_log (event_id text not null)');
    let calls = 0;
    const boom = new Error('partner failure');
    await expect(
      syncToPostgres(env.client(), {
        connectionString: url,
        once: true,
        onChange: async (event, tx) => {
          await tx.query('insert into partner_log values ($1)', [event.id]);
          if (++calls === 4) throw boom;
        },
      }),
    ).rejects.toBe(boom);
    // The first page's changes are one batch: onChange ran for 3 of them, and none is committed.
    expect(calls).toBe(4);
    expect((await pool.query('select count(*)::int as n from partner_log')).rows[0].n).toBe(0);
    expect((await pool.query('select count(*)::int as n from crp.bookings')).rows[0].n).toBe(0);
    await syncToPostgres(env.client(), {
      connectionString: url,
      once: true,
      onChange: async (event, tx) => void (await tx.query('insert into partner_log values ($1)', [event.id])),
    });
    const all = (await pool.query('select event_id from partner_log')).rows.map((r) => r.event_id);
    expect(new Set(all).size).toBe(all.length);
    const { sandbox, key } = env;
    const videos = sandbox.inspect.stores(key).flatMap((s) => sandbox.inspect.videos(key, s.partner_location_id));
    // Each store's first read is a change too (location.updated).
    const stores = sandbox.inspect.stores(key).length;
    expect(all.length).toBe(sandbox.inspect.reservations(key).length + videos.length + stores);
  });

  it('migrations: two at once migrate once; a newer schema is refused and left as it is; rows of others are kept', {
    timeout: 60_000,
  }, async () => {
    const url = await freshDatabase(server());
    const a = poolOf(url);
    const b = poolOf(url);
    const [ca, cb] = await Promise.all([a.connect(), b.connect()]);
    const found = await Promise.all([migrate(ca, 'crp', 'db'), migrate(cb, 'crp', 'db')]);
    ca.release();
    cb.release();
    expect(found.sort()).toEqual([0, SCHEMA_VERSION]);
    await a.query("insert into crp.stores (partner_location_id, data) values ('mine', '{}')");
    const c = await a.connect();
    expect(await migrate(c, 'crp', 'db')).toBe(SCHEMA_VERSION);
    c.release();
    expect((await a.query('select partner_location_id from crp.stores')).rows).toEqual([
      { partner_location_id: 'mine' },
    ]);
    await a.query(`update crp.crp_schema set version = ${SCHEMA_VERSION + 1}`);
    env = await startSimEnv('msw');
    const error = await syncToPostgres(env.client(), { connectionString: url, once: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MirrorDatabaseError);
    expect((error as MirrorDatabaseError).problem).toBe('schema_newer');
    expect((error as Error).message).toContain(
      `version ${SCHEMA_VERSION + 1}, newer than this package knows (${SCHEMA_VERSION})`,
    );
    expect((error as Error).message).toContain(`127.0.0.1:${server().port}/`);
    expect((await a.query('select version from crp.crp_schema')).rows[0].version).toBe(SCHEMA_VERSION + 1);
  });

  it('a table altered by hand: one clear error naming the database and the column, nothing written', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    await syncToPostgres(env.client(), { connectionString: url, once: true });
    await pool.query('alter table crp.bookings rename column status to state');
    const error = await syncToPostgres(env.client(), { connectionString: url, once: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MirrorDatabaseError);
    expect((error as MirrorDatabaseError).problem).toBe('schema_altered');
    expect((error as Error).message).toMatch(/crp\.bookings\.status is missing/);
    expect((error as Error).message).toContain(`127.0.0.1:${server().port}/`);
  });

  it('a second sync on the same schema is refused while the first runs (CheckpointLockedError naming the holder)', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const url = await freshDatabase(server());
    const stop = new AbortController();
    let firstEvent!: () => void;
    const started = new Promise<void>((resolve) => (firstEvent = resolve));
    const running = syncToPostgres(env.client(), {
      connectionString: url,
      signal: stop.signal,
      onChange: () => firstEvent(),
    });
    await started;
    const error = await syncToPostgres(env.client(), { connectionString: url, once: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointLockedError);
    expect((error as CheckpointLockedError).holderPid).toBe(process.pid);
    stop.abort();
    await running;
    // Released at a clean stop: the next one takes over at once.
    await syncToPostgres(env.client(), { connectionString: url, once: true });
  });

  it('an older state never overwrites a newer one: a booking found earlier, a store updated earlier', {
    timeout: 60_000,
  }, async () => {
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    const c = await pool.connect();
    try {
      await migrate(c, 'crp', 'db');
      const booking = {
        reservation_id: 'r1',
        partner_location_id: 's1',
        status: 'pending',
        visit_at: null,
        time_zone: 'UTC',
        party_size: 2,
        creator: { handle: 'h', platforms: [], follower_count: 1 },
        acknowledged_kind: null,
        created_at: '2026-12-01T00:00:00Z',
      };
      const event = (status: string, at: string) =>
        ({
          id: `evt_${status}`,
          type: 'reservation.updated',
          created_at: at,
          partner_location_id: 's1',
          data: { ...booking, status },
          previous: {},
        }) as unknown as PartnerEvent;
      await applyEvent(c, '"crp"', event('confirmed', '2026-12-02T00:00:00Z'));
      await applyEvent(c, '"crp"', event('pending', '2026-12-01T12:00:00Z')); // a replay of an earlier find
      expect((await c.query('select status from crp.bookings')).rows).toEqual([{ status: 'confirmed' }]);
      await applyEvent(c, '"crp"', event('completed', '2026-12-03T00:00:00Z'));
      expect((await c.query('select status from crp.bookings')).rows).toEqual([{ status: 'completed' }]);
      const store = (name: string, updated: string) =>
        ({
          partner_location_id: 's1',
          name,
          status: 'active',
          created_at: '2026-11-01T00:00:00Z',
          updated_at: updated,
        }) as unknown as Location;
      await upsertStores(c, '"crp"', [
        { store: store('New name', '2026-12-02T00:00:00Z'), at: '2026-12-02T00:00:01Z' },
      ]);
      await upsertStores(c, '"crp"', [
        { store: store('Old name', '2026-12-01T00:00:00Z'), at: '2026-12-02T00:00:02Z' },
      ]);
      expect((await c.query('select name from crp.stores')).rows).toEqual([{ name: 'New name' }]);
    } finally {
      c.release();
    }
  });
});
