/**
 * The mirror's `stores` table kept current by the stream's store family, on a real PostgreSQL 15
 * and the sandbox on simulated time: a first load reads each store once; afterwards a store
 * paused is in the table within a poll, a store renamed within `storeRefreshMs`, each through one
 * `location.updated` (to `onChange` too, in the same transaction), and nothing else is read for it.
 * A store read again and found unchanged moves its `synced_at` (the service's time of the read)
 * with no event, never back, and a crash before that write leaves the rows as they were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { PartnerEventWithStores } from '../../src/events/index.js';
import type { Location } from '../../src/index.js';
import { MirrorDatabaseError, syncToPostgres, type SyncOptions } from '../../src/postgres/index.js';
import { migrate } from '../../src/postgres/migrations.js';
import { confirmStores, upsertStores } from '../../src/postgres/rows.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { cutPool, testPool } from './cut-pool.js';
import { expectMirrorMatches, freshDatabase } from './support.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the mirror’s stores, from the stream’s store family', () => {
  const server = usePostgresServer();
  let env: SimEnv | undefined;
  let pool: pg.Pool | undefined;
  afterEach(async () => {
    await env?.close();
    await pool?.end();
    env = undefined;
    pool = undefined;
  });

  it('a first load reads each store once; a pause and a rename reach the table, once each', {
    timeout: 120_000,
  }, async () => {
    env = await startSimEnv('msw', { now: '2026-11-10T12:00:00Z', visitsPerWeek: 0 });
    const e = env;
    e.sandbox.populate(e.key, { locations: 8, reservationsPerLocation: 3 });
    const url = await freshDatabase(server());
    pool = testPool(url);
    const ids = e.sandbox.inspect.stores(e.key).map((s) => s.partner_location_id);
    const [paused, renamed] = [ids[2] as string, ids[5] as string];
    const storeReads: string[] = [];
    const start = e.clock.now();
    const changes = [
      { at: 40 * MINUTE, run: () => e.client().locations.pause(paused), done: false },
      { at: 50 * MINUTE, run: () => e.client().locations.update(renamed, { name: 'Renamed' }), done: false },
    ];
    const client = e.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const path = new URL(request.url).pathname.replace('/partner/v1', '');
        if (path === '/summary')
          for (const change of changes)
            if (!change.done && e.clock.now() >= start + change.at) {
              change.done = true;
              await change.run();
            }
        if (/^\/locations\/[^/]+$/.test(path)) storeReads.push(path.slice('/locations/'.length));
        return fetch(request);
      },
    });
    const first = await syncToPostgres(client, { connectionString: url, once: true });
    expect(storeReads.sort()).toEqual([...ids].sort());
    expect(first.storeReads).toBe(ids.length);
    const query = async (text: string) => (await (pool as pg.Pool).query(text)).rows;
    await expectMirrorMatches(e, query);

    storeReads.length = 0;
    const stop = new AbortController();
    const seen: PartnerEventWithStores[] = [];
    await pool.query('create table partner_log (event_id text not null, kind text not null)');
    await syncToPostgres(client, {
      connectionString: url,
      storeRefreshMs: 2 * HOUR,
      signal: stop.signal,
      onChange: async (event, tx) => {
        seen.push(event);
        await tx.query('insert into partner_log values ($1, $2)', [event.id, event.type]);
      },
      onProgress: () => {
        if (e.clock.now() >= start + 3 * HOUR) stop.abort();
      },
    });
    const rows = await query(
      `select partner_location_id, status, name, data from crp.stores where partner_location_id in ('${paused}', '${renamed}') order by name`,
    );
    expect(rows.map((r) => [r.partner_location_id, r.status, r.name])).toEqual(
      [
        [paused, 'paused', e.sandbox.inspect.store(e.key, paused)?.name],
        [renamed, 'active', 'Renamed'],
      ].sort((a, b) => ((a[2] as string) < (b[2] as string) ? -1 : 1)),
    );
    for (const row of rows) expect(row.data).toEqual(e.sandbox.inspect.store(e.key, row.partner_location_id as string));
    await expectMirrorMatches(e, query);
    const storeEvents = seen.filter((event) => event.type === 'location.updated');
    expect(storeEvents.map((event) => event.partner_location_id).sort()).toEqual([paused, renamed].sort());
    const pause = storeEvents.find((event) => event.partner_location_id === paused);
    expect(pause?.type === 'location.updated' && pause.previous).toEqual({ status: 'active' });
    expect((await query("select count(*)::int as n from partner_log where kind = 'location.updated'"))[0]?.n).toBe(2);
    // In the 3 hours: the chase of the pause (every store, once), and the cadence (every store
    // every 2 hours, one at a time: 12), nothing more.
    expect(storeReads.length).toBeGreaterThanOrEqual(ids.length + 10);
    expect(storeReads.length).toBeLessThanOrEqual(ids.length + 13);
  });

  /** Each store's synced_at, by id. */
  const syncedAt = async (p: pg.Pool) =>
    new Map(
      (await p.query('select partner_location_id as id, synced_at from crp.stores')).rows.map((r) => [
        r.id as string,
        (r.synced_at as Date).getTime(),
      ]),
    );

  /** A first load of `stores` stores (nothing changes afterwards): the sandbox, the database, each store's synced_at. */
  async function firstLoad(stores: number) {
    env = await startSimEnv('msw', { now: '2026-11-10T12:00:00Z', visitsPerWeek: 0 });
    const e = env;
    e.sandbox.populate(e.key, { locations: stores, reservationsPerLocation: 2 });
    const url = await freshDatabase(server());
    pool = testPool(url);
    const start = e.clock.now();
    await syncToPostgres(e.client(), { connectionString: url, once: true });
    return { e, url, start, p: pool, loaded: await syncedAt(pool) };
  }

  /** A sync until the service's clock is 3 hours past `start`, every store read each hour: the store events it delivered. */
  async function threeHours(e: SimEnv, start: number, options: Partial<SyncOptions>) {
    const stop = new AbortController();
    const seen: PartnerEventWithStores[] = [];
    const outcome = await syncToPostgres(e.client(), {
      storeRefreshMs: HOUR,
      signal: stop.signal,
      onChange: (event) => {
        seen.push(event);
      },
      onProgress: () => {
        if (e.clock.now() >= start + 3 * HOUR) stop.abort();
      },
      ...options,
    }).catch((error: unknown) => error);
    return { outcome, storeEvents: seen.filter((event) => event.type === 'location.updated') };
  }

  it('a store read again and found unchanged moves its synced_at forward, on the service’s clock, with no event', {
    timeout: 120_000,
  }, async () => {
    const { e, url, start, p, loaded } = await firstLoad(6);
    expect(loaded.size).toBe(6);
    // The service's time of the read (simulated here, far from the database's clock).
    for (const at of loaded.values()) expect(at).toBeGreaterThanOrEqual(start - 1_000);
    for (const at of loaded.values()) expect(at).toBeLessThanOrEqual(e.clock.now() + 1_000);
    const lastRecord = (await p.query('select max(id) as id from crp.stream_records')).rows[0]?.id as string;
    const { outcome, storeEvents } = await threeHours(e, start, { connectionString: url });
    expect(outcome).not.toBeInstanceOf(Error);
    expect(storeEvents).toEqual([]);
    const confirmed = await syncedAt(p);
    for (const [id, at] of confirmed) {
      expect(at, id).toBeGreaterThan(loaded.get(id) as number);
      expect(at, id).toBeLessThanOrEqual(e.clock.now() + 1_000);
    }
    // Every store is read each hour: within 3 hours each was confirmed by a read an hour in or later.
    for (const at of confirmed.values()) expect(at).toBeGreaterThanOrEqual(start + HOUR);
    await expectMirrorMatches(e, async (text) => (await p.query(text)).rows);
    // An unchanged read saves no store record in the stream's journal.
    const saved = await p.query('select record from crp.stream_records where id > $1', [lastRecord]);
    expect(saved.rows.filter((r) => (r.record as string).includes('["l",'))).toEqual([]);
  });

  it('a confirmation never moves synced_at back, and confirms only the data it read', async () => {
    const url = await freshDatabase(server());
    pool = testPool(url);
    const c = await pool.connect();
    try {
      await migrate(c, 'crp', 'db');
      const store = (id: string, name: string, updated: string) =>
        ({
          partner_location_id: id,
          name,
          status: 'active',
          created_at: '2026-11-01T00:00:00Z',
          updated_at: updated,
        }) as unknown as Location;
      await upsertStores(c, '"crp"', [
        { store: store('s1', 'One', '2026-12-01T00:00:00Z'), at: '2026-12-02T00:00:00Z' },
      ]);
      await upsertStores(c, '"crp"', [
        { store: store('s2', 'Two', '2026-12-01T00:00:00Z'), at: '2026-12-02T00:00:00Z' },
      ]);
      const at = async (id: string) => {
        const row = (await c.query('select synced_at from crp.stores where partner_location_id = $1', [id])).rows[0];
        return (row.synced_at as Date).toISOString();
      };
      const confirm = (id: string, when: string, updatedAt = '2026-12-01T00:00:00Z') =>
        confirmStores(c, '"crp"', [{ partnerLocationId: id, at: when, updatedAt }]);
      await confirm('s1', '2026-12-03T00:00:00Z');
      expect(await at('s1')).toBe('2026-12-03T00:00:00.000Z');
      // A confirmation older than the row's (written late, after a newer one): nothing moves back.
      await confirm('s1', '2026-12-02T12:00:00Z');
      expect(await at('s1')).toBe('2026-12-03T00:00:00.000Z');
      // The same data delivered again, read earlier than the last confirmation: still not back.
      await upsertStores(c, '"crp"', [
        { store: store('s1', 'One', '2026-12-01T00:00:00Z'), at: '2026-12-02T06:00:00Z' },
      ]);
      expect(await at('s1')).toBe('2026-12-03T00:00:00.000Z');
      // A read of another version than the row holds confirms nothing.
      await confirm('s2', '2026-12-04T00:00:00Z', '2026-11-30T00:00:00Z');
      expect(await at('s2')).toBe('2026-12-02T00:00:00.000Z');
      // New data: synced_at is the time of the read that found it.
      await upsertStores(c, '"crp"', [
        { store: store('s1', 'Renamed', '2026-12-05T00:00:00Z'), at: '2026-12-05T00:00:01Z' },
      ]);
      expect(await at('s1')).toBe('2026-12-05T00:00:01.000Z');
    } finally {
      c.release();
    }
  });

  it('a crash between a pass’s reads and the write of their confirmations leaves the rows as they were', {
    timeout: 120_000,
  }, async () => {
    const { e, url, start, p, loaded } = await firstLoad(4);
    const storeRecords = async () =>
      (await p.query('select record from crp.stream_records order by id')).rows.filter((r) =>
        (r.record as string).includes('["l",'),
      );
    const before = await storeRecords();
    const cuts = cutPool(url);
    try {
      cuts.cutBefore(/greatest\(t\.synced_at/);
      // Stopped after 3 hours if no confirmation was ever written (nothing to cut).
      const { outcome } = await threeHours(e, start, { pool: cuts.pool, leaseMs: 1_000 });
      expect(cuts.cut).toBe(true);
      expect(outcome).toBeInstanceOf(MirrorDatabaseError);
      expect((outcome as MirrorDatabaseError).problem).toBe('unreachable');
    } finally {
      await cuts.end();
    }
    const query = async (text: string) => (await p.query(text)).rows;
    expect(await syncedAt(p)).toEqual(loaded);
    expect(await storeRecords()).toEqual(before);
    await expectMirrorMatches(e, query);
    // A restart goes on (taking over the lease the crash left): the same reads confirm the rows, with no event.
    const restart = await threeHours(e, e.clock.now(), { connectionString: url, standby: true, leaseMs: 1_000 });
    expect(restart.outcome).not.toBeInstanceOf(Error);
    expect(restart.storeEvents).toEqual([]);
    for (const [id, at] of await syncedAt(p)) expect(at, id).toBeGreaterThan(loaded.get(id) as number);
    await expectMirrorMatches(e, query);
  });
});
