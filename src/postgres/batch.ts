/**
 * The changes the stream delivered and the mirror has not committed yet. The sync's loop body adds
 * each change here; it is sealed once the stream saves its checkpoint record (the loop body is done
 * with it), and only sealed changes are written, in the transaction that also saves their records:
 * their rows in a few multi-row statements, then the partner's `onChange` for each, in order.
 */
import type { PartnerEvent, PartnerEventWithStores } from '../events/index.js';
import type { Queryable } from './database.js';
import { databaseError } from './errors.js';
import { applyEvents, type StoreRead, upsertStores } from './rows.js';

/** Changes a batch holds before it is committed: a transaction of a few statements for this many. */
export const BATCH_CHANGES = 1_000;

export interface BatchParts {
  schemaQuoted: string;
  database: string;
  onChange: ((event: PartnerEventWithStores, tx: Queryable) => Promise<void> | void) | undefined;
}

export class ChangeBatch {
  readonly #p: BatchParts;
  /** When the oldest change held was delivered (performance.now()); undefined when none is held. */
  #since: number | undefined;
  /** Delivered, the loop body perhaps still at work on the last one. */
  #open: PartnerEventWithStores[] = [];
  #sealed: PartnerEventWithStores[] = [];

  constructor(parts: BatchParts) {
    this.#p = parts;
  }

  /** A change the stream delivered (the sync's loop body). */
  add(event: PartnerEventWithStores): void {
    this.#since ??= performance.now();
    this.#open.push(event);
  }

  /** The stream has gone on past every change delivered: they may be committed. */
  seal(): void {
    if (this.#open.length === 0) return;
    for (const event of this.#open) this.#sealed.push(event);
    this.#open = [];
  }

  /** Sealed changes waiting for their transaction. */
  get size(): number {
    return this.#sealed.length;
  }

  /** How long the oldest change held has waited for its transaction, in ms (0: none held). */
  get heldMs(): number {
    return this.#since === undefined ? 0 : performance.now() - this.#since;
  }

  /** Forget every change held: after a failed transaction, they come again from the stream. */
  drop(): void {
    this.#open = [];
    this.#sealed = [];
    this.#since = undefined;
  }

  /**
   * Write the sealed changes on `tx` (an open transaction) and hand them over: the caller commits
   * them with their records, or rolls back and drops the batch.
   */
  async write(tx: Queryable): Promise<number> {
    const events = this.#sealed;
    this.#sealed = [];
    this.#since = this.#open.length > 0 ? performance.now() : undefined;
    if (events.length === 0) return 0;
    const { schemaQuoted: s, database, onChange } = this.#p;
    const stores: StoreRead[] = [];
    const changes: PartnerEvent[] = [];
    for (const event of events) {
      if (event.type === 'location.updated') stores.push({ store: event.data, at: event.created_at });
      else changes.push(event);
    }
    try {
      await upsertStores(tx, s, stores);
      await applyEvents(tx, s, changes);
    } catch (error) {
      throw databaseError(error, database, `applying ${events.length} change(s) from ${events[0]?.id}`);
    }
    if (!onChange) return events.length;
    for (const event of events) {
      // The database's failures (the connection lost inside onChange too) are told as the database's.
      const scoped: Queryable = {
        query: <Row>(text: string, params?: unknown[]) =>
          tx.query<Row>(text, params).catch((error: unknown) => {
            throw databaseError(error, database, `applying ${event.type} ${event.id}`);
          }),
      };
      await onChange(event, scoped);
    }
    return events.length;
  }
}
