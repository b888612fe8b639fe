/**
 * A hostile database: read-only (a replica, default_transaction_read_only), lost mid-run (the
 * server killed), down at start. Each gives one clear MirrorDatabaseError naming the database
 * (never the password), nothing half-applied, and a restart goes on from the last commit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDatabaseError, syncToPostgres } from '../../src/postgres/index.js';
import { testPool } from './cut-pool.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { startPostgresServer, usePostgresServer } from '../helpers/postgres-server.js';
import { expectMirrorMatches, freshDatabase } from './support.js';

describe('syncToPostgres() on a hostile database', () => {
  const server = usePostgresServer();
  let env: SimEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('read-only (default_transaction_read_only): one error naming the database, nothing written', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const url = await freshDatabase(server());
    const name = url.split('/').pop() as string;
    await server().sql(`alter database ${name} set default_transaction_read_only = on`);
    const error = await syncToPostgres(env.client(), {
      connectionString: url.replace('postgres@', 'postgres:topsecret@'),
      once: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MirrorDatabaseError);
    expect((error as MirrorDatabaseError).problem).toBe('read_only');
    expect((error as Error).message).toContain(`127.0.0.1:${server().port}/${name}`);
    expect((error as Error).message).toMatch(/read-only/);
    expect((error as Error).message).not.toContain('topsecret');
    expect(
      await server().sql("select count(*)::int as n from information_schema.schemata where schema_name = 'crp'", name),
    ).toEqual([{ n: 0 }]);
  });

  it('down at start: one error naming the database, never the password', { timeout: 60_000 }, async () => {
    env = await startSimEnv('msw');
    const error = await syncToPostgres(env.client(), {
      connectionString: 'postgres://me:topsecret@127.0.0.1:1/partner',
      once: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MirrorDatabaseError);
    expect((error as MirrorDatabaseError).problem).toBe('unreachable');
    expect((error as MirrorDatabaseError).database).toBe('127.0.0.1:1/partner');
    expect((error as Error).message).toContain('127.0.0.1:1/partner');
    expect((error as Error).message).not.toContain('topsecret');
  });

  it('lost mid-run (the server killed): the sync rejects naming the database; after a restart it goes on from the last commit, each event once', {
    timeout: 120_000,
  }, async () => {
    const own = await startPostgresServer();
    if (!own) throw new Error('no PostgreSQL');
    try {
      env = await startSimEnv('msw', { visitsPerWeek: 5 });
      env.sandbox.populate(env.key, { locations: 4, reservationsPerLocation: 6 });
      const url = await own.database('lost');
      await own.sql('create table partner_log (event_id text not null)', 'lost');
      let applied = 0;
      let killing: Promise<void> | undefined;
      const onChange = async (event: { id: string }, tx: { query(t: string, p?: unknown[]): Promise<unknown> }) => {
        await tx.query('insert into partner_log values ($1)', [event.id]);
        if (++applied === 10) killing = own.kill();
      };
      const error = await syncToPostgres(env.client(), {
        connectionString: url,
        once: true,
        leaseMs: 1_000,
        onChange,
      }).catch((e: unknown) => e);
      await killing;
      expect(error).toBeInstanceOf(MirrorDatabaseError);
      expect((error as MirrorDatabaseError).problem).toBe('unreachable');
      expect((error as Error).message).toContain(`127.0.0.1:${own.port}/lost`);
      await own.start();
      await syncToPostgres(env.client(), {
        connectionString: url,
        once: true,
        standby: true,
        leaseMs: 1_000,
        onChange,
      });
      const pool = testPool(url);
      try {
        await expectMirrorMatches(env, async (text) => (await pool.query(text)).rows);
        expect(
          (await pool.query('select event_id from partner_log group by event_id having count(*) > 1')).rows,
        ).toEqual([]);
        expect((await pool.query('select count(*)::int as n from partner_log')).rows[0].n).toBeGreaterThanOrEqual(24);
      } finally {
        await pool.end();
      }
    } finally {
      await own.stop();
    }
  });
});
