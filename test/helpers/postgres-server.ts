/**
 * A throwaway real PostgreSQL 15 on a free loopback port, for the mirror's tests: `initdb` and
 * `postgres` from /usr/lib/postgresql/15/bin, run as the `postgres` user (the server refuses root),
 * trust authentication (password auth for one role, to test a wrong password), fsync off. Returns
 * undefined when PostgreSQL is not installed; with CRP_REQUIRE_POSTGRES=1 (CI) that is an error.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './redis-server.js';

const BIN = process.env.CRP_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust). */
  url: string;
  port: number;
  /** A new empty database, its URL. */
  database(name: string): Promise<string>;
  /** Run SQL as the superuser (psql-free: through pg). */
  sql(text: string, database?: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would; `start()` brings it back on the same port and data. */
  kill(): Promise<void>;
  start(): Promise<void>;
}

export const POSTGRES_SKIP_MESSAGE = `PostgreSQL 15 is not installed at ${BIN}: Postgres tests skipped (apt-get install postgresql-15; CI sets CRP_REQUIRE_POSTGRES=1)`;

function ids(): { uid: number; gid: number } | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    };
  } catch {
    return undefined;
  }
}

export function postgresAvailable(): boolean {
  const found = spawnSync(join(BIN, 'initdb'), ['--version'], { stdio: 'ignore' }).status === 0 && ids() !== undefined;
  if (!found && process.env.CRP_REQUIRE_POSTGRES === '1')
    throw new Error(`CRP_REQUIRE_POSTGRES=1 but ${POSTGRES_SKIP_MESSAGE}`);
  return found;
}

export async function startPostgresServer(): Promise<PostgresServer | undefined> {
  if (!postgresAvailable()) return undefined;
  const user = ids()!;
  const root = mkdtempSync(join(tmpdir(), 'crp-pg-'));
  chownSync(root, user.uid, user.gid);
  const data = join(root, 'data');
  const init = spawnSync(
    join(BIN, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    { ...user, encoding: 'utf8', cwd: root },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  // Trust for every role but `secret`, which must give its password (the wrong-password test).
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'host all secret 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\nlocal all all trust\n',
  );
  chownSync(join(data, 'pg_hba.conf'), user.uid, user.gid);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const { default: pg } = await import('pg');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const sql = async (text: string, database = 'postgres') => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/${database}` });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(text)).rows as Record<string, unknown>[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const start = async () => {
    let stderr = '';
    const c = spawn(
      join(BIN, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-k',
        root,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      {
        ...user,
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    c.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child = c;
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await sql('select 1');
        return;
      } catch {
        if (c.exitCode !== null || Date.now() > deadline) {
          c.kill('SIGKILL');
          throw new Error(`postgres did not start on port ${port}: ${stderr.trim().slice(-500)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  await start();
  return {
    url,
    port,
    async database(name) {
      await sql(`create database ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    sql,
    start,
    async stop() {
      if (child && child.exitCode === null) child.kill('SIGINT');
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
    async kill() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** In a `describe`: one server for its tests, started before the first and stopped after the last. */
export function usePostgresServer(): () => PostgresServer {
  let started: PostgresServer | undefined;
  beforeAll(async () => {
    started = await startPostgresServer();
    if (!started) throw new Error(POSTGRES_SKIP_MESSAGE);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  }, 60_000);
  return () => {
    if (!started) throw new Error('usePostgresServer: the server starts in beforeAll; use it inside a test');
    return started;
  };
}
