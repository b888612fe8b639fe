import { CheckpointLockedError } from '../index.js';

/** How a record is saved: `replace` drops everything saved before it (the watcher's snapshot). */
export interface SaveOptions {
  /** True for a snapshot that replaces every earlier record; false (default) to add after them. */
  replace?: boolean;
}

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
   * rejects with `CheckpointLockedError` while another watcher holds it.
   */
  lock?(): Promise<() => Promise<void>>;
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
  return {
    load: async () => [...records],
    save: async (record, options = {}) => {
      if (options.replace) records = [record];
      else records.push(record);
    },
    lock: async () => {
      if (locked) throw new CheckpointLockedError('This memoryCheckpoint() is in use by another watcher. Stop that watcher first, or give each watcher its own checkpoint.');
      locked = true;
      return async () => {
        locked = false;
      };
    },
  };
}
