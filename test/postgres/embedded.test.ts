/**
 * The embedded engine (PGlite, real Postgres in WebAssembly, in a folder): the same tables, the
 * same exactly-once transaction with onChange, and a catch-up after the folder is opened again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { syncToPostgres } from '../../src/postgres/index.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { expectMirrorMatches } from './support.js';

describe('syncToPostgres({ embedded })', () => {
  let env: SimEnv | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    env = undefined;
    dir = undefined;
  });

  it('fills the tables in a folder, onChange once per change, and catches up when opened again', {
    timeout: 180_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 5 });
    env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 4 });
    dir = mkdtempSync(join(tmpdir(), 'crp-pglite-'));
    const folder = join(dir, 'db');
    const setup = await PGlite.create(folder);
    await setup.query('create table partner_log (event_id text not null)');
    await setup.close();
    const onChange = async (event: { id: string }, tx: { query(t: string, p?: unknown[]): Promise<unknown> }) => {
      await tx.query('insert into partner_log values ($1)', [event.id]);
    };
    const first = await syncToPostgres(env.client(), { embedded: folder, once: true, onChange });
    expect(first.database).toBe(`embedded ${folder}`);
    env.sandbox.clock.advance({ ms: 2 * 86_400_000 });
    const second = await syncToPostgres(env.client(), { embedded: folder, once: true, onChange });
    const db = await PGlite.create(folder);
    try {
      await expectMirrorMatches(env, async (text) => (await db.query<Record<string, unknown>>(text)).rows);
      expect((await db.query('select event_id from partner_log group by event_id having count(*) > 1')).rows).toEqual(
        [],
      );
      expect((await db.query<{ n: number }>('select count(*)::int as n from partner_log')).rows[0]?.n).toBe(
        first.events + second.events,
      );
    } finally {
      await db.close();
    }
  });

  it('refuses standby on an embedded database, and a second source', async () => {
    env = await startSimEnv('msw');
    await expect(syncToPostgres(env.client(), { embedded: '/tmp/x', standby: true })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(
      syncToPostgres(env.client(), { embedded: '/tmp/x', connectionString: 'postgres://h/db' }),
    ).rejects.toThrow(/needs one database/);
  });
});
