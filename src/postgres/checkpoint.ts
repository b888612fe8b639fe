/**
 * The stream's checkpoint in the mirror's own schema (`stream_records`), and the transaction each
 * event commits in. The sync's loop body opens the transaction (`begin()`: fenced by the lease),
 * writes the event's rows and the partner's `onChange` statements; the watcher then saves the
 * event's record (`save()`), which is written in that same transaction and commits it. So the rows,
 * the partner's statements and the stream's position commit together or not at all.
 */
import type { Checkpoint, LockOptions, SaveOptions } from '../events/index.js';
import type { Queryable, Session } from './database.js';
import { databaseError } from './errors.js';
import type { WriterLease } from './lease.js';

export interface CheckpointParts {
  main: Session;
  /** A second connection renewing the lease while the main one is in a transaction; none for the embedded engine. */
  renewal: Session | undefined;
  lease: WriterLease;
  schemaQuoted: string;
  database: string;
  /** Called at every `confirm()` outside a transaction: the sync's own work between events and polls. */
  onConfirm(signal: AbortSignal): Promise<void>;
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
  /** Statements sent in this process (the crash tests cut the connection at a random one). */
  statements = 0;

  constructor(parts: CheckpointParts) {
    this.#p = parts;
    this.#records = `${parts.schemaQuoted}.stream_records`;
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

  /** Open the event's transaction, fenced: rejects (nothing written) once the lease is lost. */
  async begin(): Promise<Queryable> {
    await this.#commitOpen();
    try {
      await this.tx.query('begin');
      this.#open = true;
      await this.#p.lease.check(this.tx);
    } catch (error) {
      await this.rollback();
      throw databaseError(error, this.#p.database, 'opening a transaction');
    }
    return this.tx;
  }

  /** Drop the open transaction: nothing of it is committed. */
  async rollback(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.tx.query('rollback').catch(() => undefined);
  }

  async save(record: string, options: SaveOptions = {}): Promise<void> {
    if (!this.#open) await this.begin();
    try {
      if (options.replace) await this.tx.query(`delete from ${this.#records}`);
      await this.tx.query(`insert into ${this.#records} (record) values ($1)`, [record]);
    } catch (error) {
      await this.rollback();
      throw databaseError(error, this.#p.database, 'saving the stream checkpoint');
    }
    await this.#commitOpen();
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
      await this.rollback();
      if (!lease.lost) await lease.release(main).catch(() => undefined);
    };
  }

  async confirm(signal: AbortSignal): Promise<void> {
    const { lease } = this.#p;
    if (lease.lost) throw lease.lostError();
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
