/**
 * A checkpoint's table of the stores (the Postgres mirror's `stream_stores`): per store number its
 * id and the per-store value of each family that declares a `column` (a store's record, its video
 * counts), instead of a snapshot that lists every store and is rebuilt whole at each compaction and
 * parsed whole at each start. A store's row is written with the checkpoint's next commit, in the
 * transaction that saves the event that changed it; the state reads every row when it loads.
 */

/** The name a checkpoint's tables (state-tables.ts) give the store table by; no family is named so. */
export const STORE_TABLE = 'stores';

/** One store's row: `values` by family column (null: the family holds nothing for it). */
export interface StoreRow {
  store: number;
  id: string;
  values: Record<string, string | null>;
  /** The state's billing month when the row was written (a family's value may depend on it). */
  month: string;
}

export interface StoreTable {
  /** Every row, in store number order, a page at a time. */
  rows(): AsyncIterable<readonly StoreRow[]>;
  /** Write this row (replacing the store's) with the checkpoint's next commit. */
  hold(row: StoreRow): void;
  /** Forget every row with the next commit (before what is held after). */
  clear(): void;
}
