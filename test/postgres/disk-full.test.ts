/**
 * A full disk: the mirror's tables on a tablespace in a tmpfs of 1 MB, which fills mid-run. One
 * MirrorDatabaseError (`disk_full`) naming the database, never its password; nothing half-applied
 * (each booking row and the partner's statements for it committed together or not at all); and once
 * space returns (the tmpfs made larger), a restart goes on from the last commit, each event once.
 * Mounting a tmpfs needs root with CAP_SYS_ADMIN: where it is refused, the test says so and is skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MirrorDatabaseError, syncToPostgres, type SyncOptions } from '../../src/postgres/index.js';
import { testPool } from './cut-pool.js';
import { startSimEnv, type SimEnv } from '../events/support.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { expectMirrorMatches, freshDatabase } from './support.js';

/** A tmpfs of `size` at a new folder owned by the postgres user; undefined where mounting is refused. */
function tinyDisk(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'crp-tiny-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  chownSync(dir, uid, gid);
  return dir;
}

const disk = process.getuid?.() === 0 ? tinyDisk('1m') : undefined;
if (!disk) console.warn('disk-full.test.ts: mounting a tmpfs was refused (needs root with CAP_SYS_ADMIN): skipped');

describe('syncToPostgres() on a full disk', () => {
  const server = usePostgresServer();
  let env: SimEnv | undefined;
  afterAll(async () => {
    await env?.close();
    if (disk) {
      spawnSync('umount', [disk], { stdio: 'ignore' });
      rmSync(disk, { recursive: true, force: true });
    }
  });

  it.skipIf(!disk)(
    'fills mid-run: one disk_full error naming the database, nothing half-applied; after space returns it goes on, each event once',
    {
      timeout: 120_000,
    },
    async () => {
      env = await startSimEnv('msw', { visitsPerWeek: 0 });
      // About 2 MB of bookings for a disk of 1 MB.
      env.sandbox.populate(env.key, { locations: 60, reservationsPerLocation: 30 });
      const url = await freshDatabase(server());
      const name = url.split('/').pop() as string;
      const pool = testPool(url);
      const tablespace = `tiny_${process.pid}`;
      try {
        await pool.query('create table partner_log (event_id text not null, kind text not null, ref text not null)');
        const options: SyncOptions = {
          connectionString: url.replace('postgres@', 'postgres:topsecret@'),
          once: true,
          onChange: async (event, tx) => {
            const ref = event.type === 'location.updated' ? event.data.partner_location_id : event.id;
            const booking = event.type === 'reservation.created' || event.type === 'reservation.updated';
            await tx.query('insert into partner_log (event_id, kind, ref) values ($1, $2, $3)', [
              event.id,
              event.type,
              booking ? event.data.reservation_id : ref,
            ]);
          },
        };
        // Stopped at once: the tables made (the migrations), nothing synced.
        await syncToPostgres(env.client(), { ...options, signal: AbortSignal.abort() });
        await server().sql(`create tablespace ${tablespace} location '${disk}'`);
        for (const table of ['bookings', 'videos', 'stream_records'])
          await pool.query(`alter table crp.${table} set tablespace ${tablespace}`);
        const error = await syncToPostgres(env.client(), options).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(MirrorDatabaseError);
        expect((error as MirrorDatabaseError).problem).toBe('disk_full');
        expect((error as Error).message).toContain(`127.0.0.1:${server().port}/${name}`);
        expect((error as Error).message).toMatch(/disk is full/);
        expect((error as Error).message).not.toContain('topsecret');
        const count = async (sql: string) => (await pool.query(sql)).rows[0].n as number;
        // Some batches committed before the disk filled, and each booking row came with its partner row.
        const logged = await count(
          "select count(distinct ref)::int as n from partner_log where kind like 'reservation.%'",
        );
        expect(logged).toBeGreaterThan(6);
        expect(logged).toBeLessThan(env.sandbox.inspect.reservations(env.key).length);
        expect(logged).toBe(await count('select count(*)::int as n from crp.bookings'));
        expect(
          await count(
            "select count(*)::int as n from partner_log l where kind like 'reservation.%' and not exists (select 1 from crp.bookings b where b.reservation_id = l.ref)",
          ),
        ).toBe(0);

        execFileSync('mount', ['-o', 'remount,size=64m', disk as string]);
        await syncToPostgres(env.client(), options);
        await expectMirrorMatches(env, async (text) => (await pool.query(text)).rows);
        expect(
          (await pool.query('select event_id from partner_log group by event_id having count(*) > 1')).rows,
        ).toEqual([]);
        const videos = env.sandbox.inspect
          .stores(env.key)
          .flatMap((s) => env?.sandbox.inspect.videos(env.key, s.partner_location_id) ?? []);
        expect(await count('select count(*)::int as n from partner_log')).toBe(
          env.sandbox.inspect.reservations(env.key).length + videos.length + env.sandbox.inspect.stores(env.key).length,
        );
      } finally {
        await pool.end();
        await server()
          .sql(`drop database if exists ${name}`)
          .catch(() => undefined);
        await server()
          .sql(`drop tablespace if exists ${tablespace}`)
          .catch(() => undefined);
      }
    },
  );
});
