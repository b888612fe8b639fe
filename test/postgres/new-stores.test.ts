/**
 * syncToPostgres({ once: true }) after stores appeared with their history (populated: the past
 * weeks' visits completed and filmed before the store was enrolled, which billing does not list it
 * for), with no simulated time passing since the first load: when `once` resolves, every video of
 * the service is in the tables, as are the bookings, stores and billing, for one content read per new store.
 */
import { describe, expect, it } from 'vitest';
import { syncToPostgres } from '../../src/postgres/index.js';
import { useSimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { expectMirrorMatches, freshDatabase, usePools } from './support.js';

describe('syncToPostgres() once, stores that appeared since the first load', () => {
  const server = usePostgresServer();
  const startEnv = useSimEnv();
  const poolOf = usePools();

  it('the second once run brings every video of the new stores, those of months billing does not list them for included', {
    timeout: 60_000,
  }, async () => {
    const env = await startEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 5, reservationsPerLocation: 10 });
    const url = await freshDatabase(server());
    const pool = poolOf(url);
    const query = async (text: string) => (await pool.query(text)).rows;
    await syncToPostgres(env.client(), { connectionString: url, once: true });
    await expectMirrorMatches(env, query);
    const before = env.clock.now();
    env.sandbox.populate(env.key, { locations: 5, reservationsPerLocation: 10, idPrefix: 'late-' });
    // The new stores' videos are all older than their enrollment: billing lists them for none of their months.
    const month = new Date(before).toISOString().slice(0, 7);
    const late = env.sandbox.inspect
      .stores(env.key)
      .filter((s) => s.partner_location_id.startsWith('late-'))
      .flatMap((s) => env.sandbox.inspect.videos(env.key, s.partner_location_id));
    expect(late.filter((v) => v.posted_at.slice(0, 7) < month).length).toBeGreaterThan(0);
    const seq = env.sandbox.requests.at(-1)?.seq ?? 0;
    await syncToPostgres(env.client(), { connectionString: url, once: true });
    expect(env.clock.now() - before).toBeLessThan(60_000);
    await expectMirrorMatches(env, query);
    // One content read per new store with a completed visit; the stores the first load read, not again
    // (billing does not list them for last month either: they were enrolled this month too).
    const reads = env.sandbox.requests
      .filter((r) => r.seq > seq && /\/content$/.test(r.path))
      .map((r) => r.path.split('/').at(-2));
    const withVisits = new Set(
      env.sandbox.inspect
        .reservations(env.key)
        .filter((b) => b.status === 'completed' && b.partner_location_id.startsWith('late-'))
        .map((b) => b.partner_location_id),
    );
    expect(reads.sort()).toEqual([...withVisits].sort());
  });
});
