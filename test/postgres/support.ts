/**
 * What the mirror's tests share: a sandbox on simulated time (test/events/support.ts) and a check
 * that the mirror's tables hold what the service holds.
 */
import type pg from 'pg';
import { afterEach, expect } from 'vitest';
import type { SimEnv } from '../events/support.js';
import { migrate } from '../../src/postgres/migrations.js';
import type { PostgresServer } from '../helpers/postgres-server.js';
import { testPool } from './cut-pool.js';

let databases = 0;
/** A fresh database on the server, its URL. */
export const freshDatabase = (server: PostgresServer): Promise<string> =>
  server.database(`mirror_${process.pid}_${++databases}_${Date.now() % 100000}`);

/** Pools a test opens (`testPool`), each ended after the test. */
export function usePools(): (url: string) => pg.Pool {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });
  return (url) => {
    const pool = testPool(url);
    pools.push(pool);
    return pool;
  };
}

/**
 * A fresh database migrated to the mirror's schema (`crp`), and a connection to it that logs each
 * statement's text (`statements`, emptied after the migration): what the stream's tables are tested on.
 */
export async function migratedDatabase(server: PostgresServer, poolOf: (url: string) => pg.Pool) {
  const pool = poolOf(await freshDatabase(server));
  const statements: string[] = [];
  const db = {
    query: async <Row>(text: string, params?: unknown[]) => {
      statements.push(text);
      return (await pool.query(text, params)) as unknown as { rows: Row[] };
    },
  };
  await migrate(db, 'crp', 'test');
  statements.length = 0;
  return { db, statements, pool };
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** The tables of `schema` hold the service's bookings, videos, stores and this month's billing, no more, no less. */
export async function expectMirrorMatches(env: SimEnv, query: Query, schema = 'crp'): Promise<void> {
  const bookings = env.sandbox.inspect.reservations(env.key);
  const rows = await query(
    `select reservation_id, status, acknowledged_kind, data from ${schema}.bookings order by reservation_id`,
  );
  expect(rows.map((r) => [r.reservation_id, r.status, r.acknowledged_kind])).toEqual(
    [...bookings]
      .sort((a, b) => (a.reservation_id < b.reservation_id ? -1 : 1))
      .map((b) => [b.reservation_id, b.status, b.acknowledged_kind]),
  );
  const stores = env.sandbox.inspect.stores(env.key);
  const videos = stores.flatMap((s) => env.sandbox.inspect.videos(env.key, s.partner_location_id));
  const videoRows = await query(`select video_id, data from ${schema}.videos order by video_id`);
  expect(videoRows.map((r) => r.video_id)).toEqual(videos.map((v) => v.video_id).sort());
  for (const v of videoRows) expect(v.data).toEqual(videos.find((x) => x.video_id === v.video_id));
  const storeRows = await query(
    `select partner_location_id, name, status, data from ${schema}.stores order by partner_location_id`,
  );
  expect(storeRows.map((r) => r.partner_location_id)).toEqual(stores.map((s) => s.partner_location_id).sort());
  for (const row of storeRows)
    expect(row.status).toBe(stores.find((s) => s.partner_location_id === row.partner_location_id)?.status);
  const month = env.sandbox.clock.now().toISOString().slice(0, 7);
  const billing = await query(
    `select partner_location_id, videos_published from ${schema}.billing_monthly where month = '${month}' order by partner_location_id`,
  );
  expect(billing.map((r) => r.partner_location_id)).toEqual(stores.map((s) => s.partner_location_id).sort());
}
