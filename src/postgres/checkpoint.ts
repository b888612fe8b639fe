/**
 * The stream's checkpoint in the mirror's own schema (`stream_records`), and the transactions the
 * changes commit in. The sync's loop body hands each change to the batch (batch.ts); the watcher
 * then saves the change's record (`save()`), which is held with it. A batch commits in one fenced
 * transaction (`flush()`): its rows, the partner's `onChange` statements and the records saved
 * since the last commit, together or not at all. It commits when it is full, before a stream call
 * that must wait for the budget or once its oldest change has waited a second (the sync's budget),
 * at the end of each pass (`PASS_END`), and when the lock is released; a snapshot commits at once.
 */
import type { Checkpoint, LockOptions, SaveOptions } from '../events/index.js';
import { PASS_END } from '../events/pass-end.js';
import { STATE_TABLES, type StateTables } from '../events/state-tables.js';
import { STORE_TABLE } from '../events/store-table.js';
import { BATCH_CHANGES, type ChangeBatch } from './batch.js';
import type { Queryable, Session } from './database.js';
import { databaseError } from './errors.js';
import type { WriterLease } from './lease.js';
import { StreamBookings } from './stream-bookings.js';
import { StreamStores } from './stream-stores.js';
import { StreamVideos } from './stream-videos.js';

export interface CheckpointParts {
  main: Session;
  /** A second connection renewing the lease while the main one is in a transaction; none for the embedded engine. */
  renewal: Session | undefined;
  lease: WriterLease;
  /** The changes delivered and not yet committed. */
  batch: ChangeBatch;
  schemaQuoted: string;
  database: string;
  /** Called at every `confirm()` outside a transaction: the sync's own work between events and polls. */
  onConfirm(signal: AbortSignal): Promise<void>;
}

/** The mirror's tables of the account's data: a history reset deletes their rows (the history they mirror is gone). */
const ACCOUNT_TABLES = ['bookings', 'videos', 'stores', 'billing_monthly'] as const;

/** Records held past this many characters are committed (with their changes) at once. */
const HELD_RECORD_CHARS = 1_000_000;
/** Rows held for the stream's tables (`stream_bookings`, `stream_videos`, `stream_stores`) past this many are committed at once. */
const HELD_TABLE_ROWS = 5_000;
/** The line the stream saves for an event whose records all went to its tables: nothing to store. */
const NO_RECORDS = '[]';

/**
 * A batch that failed (the partner's `onChange` threw, or the database did): carried through the
 * stream, which would retry an error it takes for transient, to the sync, which rejects with `error`.
 */
export class BatchFailed extends Error {
  constructor(readonly error: unknown) {
    super('The batch of changes was not committed', { cause: error });
  }
}

const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });

export class PostgresCheckpoint implements Checkpoint {
  readonly #p: CheckpointParts;
  readonly #records: string;
  #open = false;
  /** Records saved since the last commit, and whether the first of them replaces every row. */
  #held: string[] = [];
  #heldChars = 0;
  #replace = false;
  /** The batch that failed: nothing more is committed by this checkpoint. */
  failure: BatchFailed | undefined;
  /** Statements sent in this process (the crash tests cut the connection at a random one). */
  statements = 0;
  /** The stream's bookings, kept in their table (the stream reads them through `STATE_TABLES`). */
  readonly bookings: StreamBookings;
  /** The ids of the videos the stream delivered, kept in their table likewise. */
  readonly videos: StreamVideos;
  /** The stores, their records and video counts, kept in their table likewise. */
  readonly stores: StreamStores;

  constructor(parts: CheckpointParts) {
    this.#p = parts;
    this.#records = `${parts.schemaQuoted}.stream_records`;
    this.bookings = new StreamBookings(this.tx, parts.schemaQuoted, parts.database);
    this.videos = new StreamVideos(this.tx, parts.schemaQuoted, parts.database);
    this.stores = new StreamStores(this.tx, parts.schemaQuoted, parts.database);
  }

  /** The parts of the stream's state that grow with the account live in the mirror's tables: bookings, videos' ids, stores. */
  [STATE_TABLES](): StateTables {
    const tables: Record<string, unknown> = {
      bookings: this.bookings,
      videos: this.videos,
      [STORE_TABLE]: this.stores,
    };
    return { table: (family) => (Object.hasOwn(tables, family) ? tables[family] : undefined) };
  }

  /** Rows held for the stream's tables, to be written with the next commit. */
  get #tablesHeld(): number {
    return this.bookings.pending + this.videos.pending + this.stores.pending;
  }

  /** The main connection, counting statements. */
  readonly tx: Queryable = {
    query: (text, params) => {
      this.statements++;
      return this.#p.main.query(text, params);
    },
  };

  async load(): Promise<string[]> {
    try {
      return (await this.tx.query<{ record: string }>(`select record from ${this.#records} order by id`)).rows.map(
        (r) => r.record,
      );
    } catch (error) {
      throw databaseError(error, this.#p.database, 'reading the stream checkpoint');
    }
  }

  /** Commit what is held, then open a transaction, fenced: rejects (nothing written) once the lease is lost. */
  async begin(): Promise<Queryable> {
    await this.flush();
    await this.#begin();
    return this.tx;
  }

  async #begin(): Promise<void> {
    await this.#commitOpen();
    try {
      await this.tx.query('begin');
      this.#open = true;
      await this.#p.lease.check(this.tx);
    } catch (error) {
      await this.rollback();
      throw databaseError(error, this.#p.database, 'opening a transaction');
    }
  }

  /** Drop the open transaction: nothing of it is committed. */
  async rollback(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.tx.query('rollback').catch(() => undefined);
  }

  async save(record: string, options: SaveOptions = {}): Promise<void> {
    if (this.failure) throw this.failure;
    // The watcher saves once the loop body is done with the changes delivered.
    this.#p.batch.seal();
    if (record === NO_RECORDS && !options.replace) {
      // Its records are held in their tables; the line itself holds nothing to replay.
    } else if (options.replace) {
      this.#held = [record];
      this.#heldChars = record.length;
      this.#replace = true;
    } else {
      this.#held.push(record);
      this.#heldChars += record.length;
    }
    if (
      options.replace ||
      this.#p.batch.size >= BATCH_CHANGES ||
      this.#heldChars >= HELD_RECORD_CHARS ||
      this.#tablesHeld >= HELD_TABLE_ROWS
    )
      await this.flush();
  }

  /** Commit every change delivered so far, with the records saved since the last commit. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    this.#p.batch.seal();
    await this.#commitHeld();
  }

  /** The watcher's end of a pass: nothing waits out the interval uncommitted. */
  [PASS_END](): Promise<void> {
    return this.flush();
  }

  /** One fenced transaction: the sealed changes' rows and `onChange` statements, then the records held. */
  async #commitHeld(): Promise<void> {
    const { batch } = this.#p;
    if (this.#held.length === 0 && batch.size === 0 && this.#tablesHeld === 0) return;
    const records = this.#held;
    const replace = this.#replace;
    // The stream forgot its history (its `r` record is among those held): the rows of that history go
    // in the same transaction, before the changes found after it.
    const reset = this.bookings.clearing;
    this.#held = [];
    this.#heldChars = 0;
    this.#replace = false;
    try {
      await this.#begin();
      if (reset) {
        try {
          for (const table of ACCOUNT_TABLES) await this.tx.query(`delete from ${this.#p.schemaQuoted}.${table}`);
        } catch (error) {
          throw databaseError(error, this.#p.database, 'deleting the rows of a history gone back');
        }
      }
      await batch.write(this.tx);
      try {
        await this.bookings.write(this.tx);
        await this.videos.write(this.tx);
        await this.stores.write(this.tx);
        if (replace) await this.tx.query(`delete from ${this.#records}`);
        if (records.length > 0)
          await this.tx.query(
            `insert into ${this.#records} (record) select r from unnest($1::text[]) with ordinality as t(r, n) order by n`,
            [records],
          );
      } catch (error) {
        throw databaseError(error, this.#p.database, 'saving the stream checkpoint');
      }
      await this.#commitOpen();
    } catch (error) {
      batch.drop();
      await this.rollback();
      this.failure = new BatchFailed(error);
      throw this.failure;
    }
  }

  /** Commit the open transaction (none open: nothing to do). */
  commit(): Promise<void> {
    return this.#commitOpen();
  }

  async #commitOpen(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    let result: { command?: string };
    try {
      result = (await this.tx.query('commit')) as { command?: string };
    } catch (error) {
      throw databaseError(error, this.#p.database, 'committing');
    }
    // A statement that failed inside the transaction (caught by onChange) turns COMMIT into ROLLBACK.
    if (result.command === 'ROLLBACK') {
      throw databaseError(
        new Error(
          'a statement of the transaction had failed (an error caught inside onChange?), so the server rolled it back',
        ),
        this.#p.database,
        'committing',
      );
    }
  }

  async lock(options: LockOptions = {}): Promise<() => Promise<void>> {
    const { lease, main, renewal } = this.#p;
    for (;;) {
      const result = await lease.take(main);
      if (result.taken) break;
      if (!options.wait) throw lease.heldError(result.pid, result.host);
      await realSleep(lease.pollMs, options.signal);
    }
    options.onStatus?.('held');
    let timer: ReturnType<typeof setInterval> | undefined;
    if (renewal) {
      let renewing = false;
      timer = setInterval(() => {
        if (renewing) return;
        renewing = true;
        lease
          .renew(renewal)
          .then(
            (held) => options.onStatus?.(held ? 'held' : 'lost'),
            () => options.onStatus?.('unreachable'),
          )
          .finally(() => (renewing = false));
      }, lease.pollMs);
      timer.unref?.();
    }
    return async () => {
      if (timer) clearInterval(timer);
      // Only sealed changes: a loop left by an error may not be done with the last one delivered.
      if (!this.failure && !lease.lost) await this.#commitHeld().catch(() => undefined);
      await this.rollback();
      if (!lease.lost) await lease.release(main).catch(() => undefined);
    };
  }

  async confirm(signal: AbortSignal): Promise<void> {
    const { lease } = this.#p;
    if (lease.lost) throw lease.lostError();
    if (this.failure) throw this.failure;
    await this.#commitOpen();
    // The embedded engine has one connection: its lease is renewed here, between transactions.
    if (!this.#p.renewal) {
      try {
        await lease.renew(this.tx);
      } catch (error) {
        throw databaseError(error, this.#p.database, 'renewing the writer lease');
      }
      if (lease.lost) throw lease.lostError();
    }
    await this.#p.onConfirm(signal);
  }
}
