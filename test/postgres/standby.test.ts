/**
 * Replicas of the mirror as processes of their own on one database (`standby: true`): one writes;
 * when it dies (SIGKILL) another takes over within the lease plus one poll; a writer paused
 * (SIGSTOP) past its lease, even inside a transaction, commits nothing after the takeover when it
 * wakes, and stops. Each event is in the partner's table once, whichever replica applied it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type pg from 'pg';
import { testPool } from './cut-pool.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TSX, startCrpSandbox, type CrpSandbox } from '../cli/processes.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { freshDatabase } from './support.js';

const LEASE_MS = 1_500;
/** The lease's poll (WriterLease.pollMs for this lease). */
const POLL_MS = LEASE_MS / 4;

interface Replica {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function replica(env: NodeJS.ProcessEnv): Replica {
  const child = spawn(process.execPath, [...TSX, join(ROOT, 'test/postgres/fixtures/sync-runner.ts')], {
    cwd: ROOT,
    env,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('syncToPostgres() replicas (standby, lease, fencing)', () => {
  const server = usePostgresServer();
  let sandbox: CrpSandbox;
  const replicas: Replica[] = [];
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    sandbox = await startCrpSandbox(['--stores', '3', '--visits-per-week', '200', '--pace', '3600', '--quiet']);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.stop();
  });
  afterEach(async () => {
    for (const r of replicas.splice(0)) {
      r.child.kill('SIGCONT');
      r.child.kill('SIGKILL');
      await r.exited;
    }
    await pool?.end();
    pool = undefined;
  });

  async function setUp(): Promise<{ env: NodeJS.ProcessEnv; holder: () => Promise<number | undefined> }> {
    const url = await freshDatabase(server());
    pool = testPool(url);
    await pool.query(
      'create table partner_log (event_id text not null, pid integer not null, at timestamptz not null)',
    );
    const p = pool;
    const holder = async () => {
      const rows = (
        await p
          .query("select holder_pid from crp.writer_lease where name = 'writer' and expires_at > clock_timestamp()")
          .catch(() => ({ rows: [] }))
      ).rows;
      return (rows[0]?.holder_pid as number | undefined) ?? undefined;
    };
    return { env: { ...sandbox.env, DATABASE_URL: url, LEASE_MS: String(LEASE_MS) }, holder };
  }

  /** A writer that has applied a few events, and a standby waiting beside it. */
  async function writerAndStandby(): Promise<{ a: Replica; b: Replica; holder: () => Promise<number | undefined> }> {
    const { env, holder } = await setUp();
    const a = replica(env);
    replicas.push(a);
    await until('the first writer', async () => (await holder()) === a.child.pid);
    const b = replica(env);
    replicas.push(b);
    await until(
      'events of the first writer',
      async () => ((await pool!.query('select count(*)::int as n from partner_log')).rows[0].n as number) > 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // b is standing by
    return { a, b, holder };
  }

  it('a writer killed (SIGKILL): a standby takes over within the lease plus one poll, and goes on', {
    timeout: 120_000,
  }, async () => {
    const { a, b, holder } = await writerAndStandby();
    expect(await holder()).toBe(a.child.pid);
    // On the database's clock: the lease the killed writer left, and when the standby took it.
    const lease = async () =>
      (await pool!.query('select holder_pid, extract(epoch from expires_at) * 1000 as until from crp.writer_lease'))
        .rows[0] as { holder_pid: number; until: number };
    a.child.kill('SIGKILL');
    const left = await lease();
    await until('the takeover', async () => (await holder()) === b.child.pid, 30_000);
    const taken = (await lease()).until - LEASE_MS;
    // Not before the lease ran out; after it, within one poll (the slack is for a loaded machine's timers).
    expect(left.holder_pid).toBe(a.child.pid);
    expect(taken).toBeGreaterThanOrEqual(left.until - 1);
    expect(taken - left.until).toBeLessThan(POLL_MS + 3_000);
    const before = (await pool!.query('select count(*)::int as n from partner_log where pid = $1', [b.child.pid]))
      .rows[0].n as number;
    await until(
      'events applied by the standby',
      async () =>
        ((await pool!.query('select count(*)::int as n from partner_log where pid = $1', [b.child.pid])).rows[0]
          .n as number) > before,
    );
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect((await pool!.query('select event_id from partner_log group by event_id having count(*) > 1')).rows).toEqual(
      [],
    );
  });

  it('a writer paused (SIGSTOP) past its lease, inside its work: the standby takes over; the old writer commits nothing more and stops', {
    timeout: 120_000,
  }, async () => {
    const { a, b, holder } = await writerAndStandby();
    a.child.kill('SIGSTOP');
    await until('the takeover', async () => (await holder()) === b.child.pid, 30_000);
    const countOfA = async () =>
      (await pool!.query('select count(*)::int as n from partner_log where pid = $1', [a.child.pid])).rows[0]
        .n as number;
    const committedByA = await countOfA();
    await until(
      'events applied by the standby',
      async () =>
        ((await pool!.query('select count(*)::int as n from partner_log where pid = $1', [b.child.pid])).rows[0]
          .n as number) > 0,
    );
    a.child.kill('SIGCONT');
    expect(await a.exited).toBe(1);
    expect(a.stderr()).toMatch(/checkpoint_locked: .*lost the writer lease|mirror_database_error\/unreachable: /s);
    // Nothing the paused writer had open, nor anything after, was committed once the standby took over.
    expect(await countOfA()).toBe(committedByA);
    expect(await holder()).toBe(b.child.pid);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect((await pool!.query('select event_id from partner_log group by event_id having count(*) > 1')).rows).toEqual(
      [],
    );
  });
});
