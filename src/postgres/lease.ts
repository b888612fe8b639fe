/**
 * The writer's lease: one row of `writer_lease`. Taking it raises `fence`; every transaction of the
 * writer first reads the row `for key share` where holder and fence are its own (fencing inside the
 * transaction). A standby takes over only through `select … for update`, which waits for that
 * share lock: a writer either commits before the takeover or not at all. A writer paused (SIGSTOP)
 * inside a transaction keeps its lock only until the server's `idle_in_transaction_session_timeout`
 * (set to the lease) ends its session; standbys wait for the row with a short `lock_timeout`.
 * Times are the database server's (`clock_timestamp()`), so the hosts' clocks do not matter.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CheckpointLockedError } from '../index.js';
import type { Queryable } from './database.js';
import { databaseError } from './errors.js';

const LOCK_NOT_AVAILABLE = '55P03';

export type TakeResult = { taken: true } | { taken: false; pid: number | undefined; host: string | undefined };

export class WriterLease {
  /** This writer, in the lease row: host, pid and a random part (a restarted process is another writer). */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  fence = '0';
  lost = false;
  readonly #table: string;
  readonly #leaseMs: number;
  readonly #database: string;

  constructor(schemaQuoted: string, leaseMs: number, database: string) {
    this.#table = `${schemaQuoted}.writer_lease`;
    this.#leaseMs = leaseMs;
    this.#database = database;
  }

  /** How long a standby waits for the row lock, and between its looks at the lease. */
  get pollMs(): number {
    return Math.max(50, Math.min(1_000, Math.floor(this.#leaseMs / 4)));
  }

  /** Take the lease if it is free, expired or already ours; otherwise say who holds it. */
  async take(db: Queryable): Promise<TakeResult> {
    try {
      await db.query('begin');
      await db.query(`select set_config('lock_timeout', $1, true)`, [`${this.pollMs}ms`]);
      const row = (
        await db.query<{ holder: string | null; live: boolean; holder_pid: number | null; holder_host: string | null }>(
          `select holder, coalesce(expires_at > clock_timestamp(), false) as live, holder_pid, holder_host
           from ${this.#table} where name = 'writer' for update`,
        )
      ).rows[0];
      if (row?.live && row.holder !== this.holder) {
        await db.query('rollback');
        return { taken: false, pid: row.holder_pid ?? undefined, host: row.holder_host ?? undefined };
      }
      const taken = (
        await db.query<{ fence: string }>(
          `update ${this.#table} set holder = $1, fence = fence + 1, expires_at = clock_timestamp() + make_interval(secs => $2::float8 / 1000),
           holder_pid = $3, holder_host = $4 where name = 'writer' returning fence::text`,
          [this.holder, this.#leaseMs, process.pid, hostname()],
        )
      ).rows[0];
      await db.query('commit');
      if (!taken) throw new Error(`the row 'writer' of ${this.#table} is missing`);
      this.fence = taken.fence;
      this.lost = false;
      return { taken: true };
    } catch (error) {
      await db.query('rollback').catch(() => undefined);
      // The row is locked by the holder's open transaction: it is alive (or about to be cut off).
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE)
        return { taken: false, pid: undefined, host: undefined };
      throw databaseError(error, this.#database, 'taking the writer lease');
    }
  }

  /** Inside a transaction: go on only while the lease is ours, and keep it ours until the commit. */
  async check(tx: Queryable): Promise<void> {
    const rows = (
      await tx.query(
        `select 1 from ${this.#table} where name = 'writer' and holder = $1 and fence = $2::bigint for key share`,
        [this.holder, this.fence],
      )
    ).rows;
    if (rows.length === 0) {
      this.lost = true;
      throw this.lostError();
    }
  }

  /** Move the lease's end on; false when another writer has taken it. */
  async renew(db: Queryable): Promise<boolean> {
    const result = await db.query(
      `update ${this.#table} set expires_at = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
       where name = 'writer' and holder = $1 and fence = $2::bigint`,
      [this.holder, this.fence, this.#leaseMs],
    );
    if ((result.rowCount ?? 0) === 0) this.lost = true;
    return !this.lost;
  }

  /** Let a standby take over at once. */
  async release(db: Queryable): Promise<void> {
    await db.query(
      `update ${this.#table} set expires_at = null where name = 'writer' and holder = $1 and fence = $2::bigint`,
      [this.holder, this.fence],
    );
  }

  lostError(): CheckpointLockedError {
    return new CheckpointLockedError(
      `This sync lost the writer lease of ${this.#database} (${this.#table}): another sync took over after this one ` +
        'was paused or cut off past the lease. Nothing more was committed by this one; restart it ' +
        '(with standby: true it waits for the lease again).',
    );
  }

  heldError(pid: number | undefined, host: string | undefined): CheckpointLockedError {
    const who = pid === undefined ? 'another sync' : `the sync of process ${pid}${host ? ` on ${host}` : ''}`;
    return new CheckpointLockedError(
      `The mirror in ${this.#database} (${this.#table}) is being written by ${who}. Stop that one first, ` +
        'or run this one with standby: true (crp sync --standby) to take over when it stops.',
      pid,
    );
  }
}
