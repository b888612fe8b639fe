/**
 * Not public: a checkpoint may have a method under this symbol that gives, per family (by
 * `Family.name`), a table of its own where that family's part of the state lives instead of in the
 * process (the Postgres mirror keeps the bookings there: read per page when needed, written in the
 * transaction that commits their records). A family with no table keeps its part in memory, saved
 * in the snapshot and journal as usual. A symbol of the global registry: the same in every bundle.
 */
export const STATE_TABLES = Symbol.for('@crp/partner-sdk/events:stateTables');

/** The tables a checkpoint keeps; what a family's table is, its family declares (`BookingTable`). */
export interface StateTables {
  /** The table of the family named `family`, or undefined: that family's part stays in memory. */
  table(family: string): unknown;
}

/** A checkpoint's tables, when it keeps any. */
export function stateTablesOf(checkpoint: object): StateTables | undefined {
  const hook = (checkpoint as { [STATE_TABLES]?: () => StateTables })[STATE_TABLES];
  return typeof hook === 'function' ? hook.call(checkpoint) : undefined;
}
