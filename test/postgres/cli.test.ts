/**
 * `crp sync` and `crp query` as an operator runs them, against `crp-sandbox`: into a real
 * PostgreSQL, and into the embedded database (PGlite) in a folder; query read-only, CSV
 * formula-escaped; a wrong password or a server that is not there told in one line naming the
 * database, never the password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPool } from './cut-pool.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index.js';
import { crp, startCrpSandbox, type CrpSandbox } from '../cli/processes.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { freshDatabase } from './support.js';

describe('crp sync / crp query', () => {
  const server = usePostgresServer();
  let sandbox: CrpSandbox;
  let dir: string;
  let bookings = 0;
  beforeAll(async () => {
    sandbox = await startCrpSandbox(['--stores', '4', '--quiet']);
    const client = new PartnerClient({ apiKey: sandbox.key, baseUrl: sandbox.url });
    for await (const _ of client.reservations.list()) bookings++;
    await client.close();
    dir = mkdtempSync(join(tmpdir(), 'crp-sync-cli-'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('crp sync --once into Postgres fills the tables; crp query shows what the service shows (table, CSV)', {
    timeout: 120_000,
  }, async () => {
    const url = await freshDatabase(server());
    const done = await crp(['sync', '--database', url, '--once'], sandbox.env);
    expect(done.stderr).toMatch(/the tables match the service: \d+ changes applied/);
    expect(done.code).toBe(0);
    const pool = testPool(url);
    const count = (await pool.query('select count(*)::int as n from crp.bookings')).rows[0].n as number;
    const stores = (await pool.query('select count(*)::int as n from crp.stores')).rows[0].n as number;
    await pool.end();
    expect(count).toBe(bookings);
    expect(stores).toBe(4);
    const table = await crp(['query', '--database', url, 'select count(*) as n from crp.bookings'], sandbox.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toBe(`n\n${'-'.repeat(String(bookings).length)}\n${bookings}\n(1 row)\n`);
    const csv = await crp(['query', '--database', url, '--csv', "select '=1+2' as cell, 3 as n"], sandbox.env);
    expect(csv.stdout).toBe("cell,n\n'=1+2,3\n");
    const write = await crp(['query', '--database', url, 'delete from crp.bookings'], sandbox.env);
    expect(write.code).toBe(1);
    expect(write.stderr).toMatch(/read-only transaction/);
  });

  it('without --database: an embedded database in a folder, printed with how to query it', {
    timeout: 180_000,
  }, async () => {
    const folder = join(dir, 'mirror');
    const done = await crp(['sync', '--dir', folder, '--once'], sandbox.env);
    expect(done.stderr).toContain(`an embedded database in ${folder}`);
    expect(done.stderr).toContain('crp query --dir');
    expect(done.code).toBe(0);
    const rows = await crp(['query', '--dir', folder, '--csv', 'select count(*) as n from crp.bookings'], sandbox.env);
    expect(rows.stdout).toBe(`n\n${bookings}\n`);
  });

  it('a wrong password, a server that is not there: one line naming the database, never the password', {
    timeout: 60_000,
  }, async () => {
    await server().sql("create role secret login password 'right-one'");
    const wrong = await crp(
      ['sync', '--database', `postgres://secret:hunter2-wrong@127.0.0.1:${server().port}/postgres`, '--once'],
      sandbox.env,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`127.0.0.1:${server().port}/postgres`);
    expect(wrong.stderr).toMatch(/password authentication failed/);
    expect(wrong.stderr).not.toContain('hunter2');
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    const down = await crp(['sync', '--database', 'postgres://u:hunter2@127.0.0.1:1/nowhere', '--once'], sandbox.env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('127.0.0.1:1/nowhere');
    expect(down.stderr).toMatch(/ECONNREFUSED|connect/);
    expect(down.stderr).not.toContain('hunter2');
  });
});
