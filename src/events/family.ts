/**
 * What a family of changes keeps in the watcher's state, how its part of a checkpoint is
 * written and checked, and how its finder is made. Each finder's file (bookings.ts, videos.ts, stores.ts) declares its family;
 * families.ts lists them, and the detector, the state (state.ts) and the checkpoint's checks
 * (checkpoint-format.ts) go through that list, so none of them names a family.
 */
import type { Finder, FinderContext, FinderSettings } from './finder.js';
import type { Check, RecordCodec } from './records.js';

/** A record of a family: its kind (one letter, unique across families) and its values. */
export type FamilyRecord = [string, ...unknown[]];

/** One field of a family's part of the snapshot, and its check. */
export interface SnapshotField {
  check: Check;
  /** A snapshot of an older version, or one with nothing of the family, may leave it out. */
  optional?: boolean;
}

/** What a family remembers: applied record by record, replayed from its part of a snapshot. */
export interface FamilyState<R extends FamilyRecord = FamilyRecord> {
  /** Take a record's new value (a record of one of the family's kinds, already checked). */
  apply(record: R): void;
  /** The store number a record names (to be one an earlier record added), if it names one. */
  storeOf(record: R): number | undefined;
  /**
   * The family's fields of the snapshot; a field left out is not written. `storesInTable`: the
   * checkpoint keeps a store table (store-table.ts), which holds the family's per-store values.
   */
  snapshot(storesInTable?: boolean): Record<string, unknown>;
  /**
   * The records that give back the family's part of a checked snapshot, in the order to apply
   * them; `stores` is how many stores the snapshot lists, and a value naming another is refused
   * (`invalid`).
   */
  restore(snapshot: Readonly<Record<string, unknown>>, stores: number): Iterable<R>;
  /** A new billing month `to` began after `from` (`''` before the first). */
  newMonth?(from: string, to: string): void;
  /**
   * Forget everything (the service's history went back). `replayed`: the reset is a checkpoint's
   * line read at load; a family kept in a table leaves the table as it is, since it was cleared in
   * the transaction that saved that line and holds only what came after it.
   */
  forget(replayed?: boolean): void;
  /**
   * Kept in a table (`Family.create` was given one): read what the state needs from it before the
   * checkpoint's lines are replayed (its counts); families in memory have nothing to read.
   */
  loadTable?(): Promise<void>;
  /**
   * Kept in a table: take one record of a confirmed event, what of it the table keeps to be written
   * there with the checkpoint's next commit; returns what the journal line still holds of it
   * (undefined: nothing). A family without it writes its records whole.
   */
  keep?(record: R): R | undefined;
  /** Kept in a table, after a load: it replayed records of a checkpoint written before it had one, to be moved there. */
  readonly moved?: boolean;
  /** With a `column` (`Family.column`): the store's value as the state holds it now, for its row of the store table. */
  storeValue?(store: number): string | undefined;
  /**
   * With a `column`: the record that gives back a value read from the store table, written there
   * when the state's month was `written` (the state's month is now `current`).
   */
  fromTable?(store: number, value: string, written: string, current: string): R;
}

/** A family: its finder, its record kinds with their checks, its snapshot fields, and its state. */
export interface Family<R extends FamilyRecord = FamilyRecord, S extends FamilyState<R> = FamilyState<R>, T = never> {
  /** Its name, unique across families: the key a checkpoint's tables (state-tables.ts) give its table by; none, never in a table. */
  readonly name?: string;
  readonly records: readonly RecordCodec<R>[];
  /**
   * The column of a checkpoint's store table (store-table.ts) that holds its per-store value, when
   * it keeps one value a store (its state then has `storeValue` and `fromTable`); none otherwise.
   */
  readonly column?: string;
  /** Its snapshot fields, each named once across families (the checkpoint's keys). */
  readonly snapshot: Readonly<Record<string, SnapshotField>>;
  /** Its state: in memory, or kept in `table` when the checkpoint supplies one (state-tables.ts). */
  create(table?: T): S;
  /** Its finder, or none for a watcher not started with it (an opt-in family). */
  finder?(context: FinderContext, settings: FinderSettings): Finder | undefined;
}

/** The record type of a family. */
export type RecordOf<F> = F extends Family<infer R, FamilyState<infer R>, infer _T> ? R : never;
