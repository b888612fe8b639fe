import { CheckpointLockedError } from '../index.js';

/** How a record is saved: `replace` drops everything saved before it (the watcher's snapshot). */
export interface SaveOptions {
  /** True for a snapshot that replaces every earlier record; false (default) to add after them. */
  replace?: boolean;
}

/** How the watcher asks for a checkpoint's lock (`Checkpoint.lock(options)`). */
export interface LockOptions {
  /**
   * Wait while another watcher holds the lock, and take it when that one stops or dies, instead of
   * rejecting at once (the watcher's `standby: true`). A lock that cannot wait rejects at once anyway.
   */
  wait?: boolean;
  /** Ends the wait, and every retry the lock makes while held, when the watcher stops. */
  signal?: AbortSignal;
  /** Told when a lock that is held cannot be kept up (its store is unreachable) and when it is again. */
  onStatus?: (status: LockStatus) => void;
  /**
   * Called by a lock that waits (a standby) with the checkpoint's first line, when it has one;
   * returns true once that line settles whose checkpoint it is (a snapshot), and throws
   * `CheckpointInvalidError` for a checkpoint this watcher could not go on from, so a standby is
   * refused at once rather than at failover. The watcher passes it.
   */
  check?: (firstLine: string) => Promise<boolean>;
}

/**
 * What a lock is doing: `held` (delivery may go on), `standby` (waiting for it, holding nothing),
 * `unreachable` (its store does not answer, so nothing is delivered or saved until it does) or
 * `lost` (another watcher took it over, or its store lost it).
 */
export type LockStatus = 'held' | 'standby' | 'unreachable' | 'lost';

/**
 * Where a watcher keeps its position: two async functions, so it can live in your own database.
 * The watcher saves a snapshot now and then (`replace: true`) and, after each event your loop
 * finished, one small record added after it. `load` returns the snapshot and the records since,
 * in the order saved. A record is an opaque string (JSON); store it unchanged.
 *
 * In a SQL table: `save` inserts a row (in one transaction with deleting the older rows when
 * `replace` is true); `load` selects the rows in insertion order. Add `lock` to keep a second
 * watcher off the same checkpoint across processes.
 *
 * @example
 * ```ts
 * const checkpoint: Checkpoint = {
 *   load: async () => (await db.query('select record from crp_events order by id')).rows.map((r) => r.record),
 *   save: async (record, { replace } = {}) => db.tx(async (tx) => {
 *     if (replace) await tx.query('delete from crp_events');
 *     await tx.query('insert into crp_events (record) values ($1)', [record]);
 *   }),
 * };
 * ```
 */
export interface Checkpoint {
  /** Every record saved since (and including) the last `replace`, oldest first; `[]` when none. */
  load(): Promise<string[]>;
  /** Save one record: added after the others, or replacing them all with `{ replace: true }`. */
  save(record: string, options?: SaveOptions): Promise<void>;
  /**
   * Optional: take this checkpoint for one watcher. Resolves to a function that releases it;
   * rejects with `CheckpointLockedError` while another watcher holds it (with `wait: true`, waits
   * for it instead, if the lock can wait).
   */
  lock?(options?: LockOptions): Promise<() => Promise<void>>;
  /**
   * Optional, for a lock that can be lost (a lease): resolves when the lock is held now, so an event
   * can be handed to the loop; waits while its store is unreachable; rejects with
   * `CheckpointLockedError` once another watcher has taken it over. The watcher calls it before
   * each event.
   */
  confirm?(signal: AbortSignal): Promise<void>;
}

/**
 * A checkpoint in memory: for tests, and for a watcher whose process may redeliver everything
 * after a restart (it starts again from its `startFrom`). One watcher at a time.
 *
 * @example
 * ```ts
 * const checkpoint = memoryCheckpoint();
 * for await (const event of watchEvents(client, { checkpoint, signal })) console.log(event.type, event.id);
 * ```
 */
export function memoryCheckpoint(): Checkpoint {
  let records: string[] = [];
  let locked = false;
  /** Standbys, first come first served: each takes the lock when the one before releases it. */
  const waiting: Array<() => void> = [];
  /** A release for one holder: calling it again does not hand the lock on a second time. */
  const grant = () => {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else locked = false;
    };
  };
  return {
    load: async () => [...records],
    save: async (record, options = {}) => {
      if (options.replace) records = [record];
      else records.push(record);
    },
    lock: async ({ wait = false, signal } = {}) => {
      if (!locked) {
        locked = true;
        return grant();
      }
      if (!wait)
        throw new CheckpointLockedError(
          'This memoryCheckpoint() is in use by another watcher. Stop that watcher first, or give each watcher its own checkpoint.',
        );
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const take = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(signal?.reason);
        };
        waiting.push(take);
        signal?.addEventListener('abort', abort, { once: true });
      });
      return grant();
    },
  };
}
