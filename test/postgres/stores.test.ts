/**
 * The mirror's `stores` table kept current by the stream's store family, on a real PostgreSQL 15
 * and the sandbox on simulated time: a first load reads each store once; afterwards a store
 * paused is in the table within a poll, a store renamed within `storeRefreshMs`, each through one
 * `location.updated` (to `onChange` too, in the same transaction), and nothing else is read for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PartnerEventWithStores } from '../../src/events/index.js';
import { syncToPostgres } from '../../src/postgres/index.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
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
    pool = new pg.Pool({ connectionString: url });
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
});
