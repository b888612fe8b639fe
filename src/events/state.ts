/**
 * What a watcher remembers between runs, and how it is written to a checkpoint. Each family of
 * changes (families.ts) keeps its own part, declared beside its finder (bookings.ts, videos.ts,
 * stores.ts): its records, its snapshot fields and its counts. Here are what the families share,
 * and the replay that goes through each of them.
 *
 * Shared: the stores (numbered in the order added; every family's record names stores by number),
 * the billing month, the end of the account's booking list (a cursor and how many items of its
 * last page were seen), when the last full reconciliation started, and the service's history.
 *
 * On the checkpoint: a snapshot (a JSON object, which also names the key's fingerprint and the
 * service it was written for) followed by journal lines, each a JSON array of records. A record
 * holds the new value of one thing (`['b', id, packed]`), so replaying the journal over the
 * snapshot gives the state as of the last confirmed event. Every line is checked before it is
 * used (checkpoint-format.ts).
 */
import { CheckpointInvalidError } from '../index.js';
import type { Checkpoint } from './checkpoint.js';
import { invalid } from './checkpoint-invalid.js';
import { FORMAT, isStateRecord, readLine, type Snapshot } from './checkpoint-format.js';
import { FAMILIES } from './families.js';
import type { Family, FamilyRecord, FamilyState } from './family.js';
import type { StateRecord } from './records.js';
import { stateTablesOf, type StateTables } from './state-tables.js';
import { StoreIds } from './store-ids.js';
import { StoreIndex } from './store-index.js';
import { STORE_TABLE, type StoreRow, type StoreTable } from './store-table.js';

export type { StateRecord } from './records.js';

/** Whose data a checkpoint holds: the key's fingerprint (never the key) and the service's base URL. */
export interface StateIdentity {
  key: string;
  service: string;
}

export class WatchState {
  /** The stores' ids by store number (store-ids.ts). */
  readonly stores = new StoreIds();
  readonly #storeIndex = new StoreIndex(this.stores);
  readonly #families: readonly Family[];
  /** Each family's state, by family and by the kinds of its records. */
  readonly #state = new Map<Family, FamilyState>();
  readonly #byKind = new Map<string, FamilyState>();
  month = '';
  tail: { cursor: string | null; seen: number } = { cursor: null, seen: 0 };
  /** When the last completed full reconciliation started (epoch ms), or null before the first. */
  fullAt: number | null = null;
  /** The latest service time seen (epoch ms): a service whose clock is well before it went back. */
  seenAt: number | null = null;
  /** How often the service's history went back under this checkpoint. */
  resets = 0;
  /**
   * `seenAt` and `fullAt` were stamped on a service time no answers had confirmed (history.ts's
   * `clockWentBack`): the first confirmed time corrects them. Set by a `p` record, cleared in
   * memory by that correction (a later snapshot leaves it out); a restart before it keeps the mark.
   */
  provisional = false;
  identity: StateIdentity | undefined;
  #journalBytes = 0;
  #snapshotBytes = 0;
  /** False while the checkpoint holds no snapshot: the first save then writes one. */
  #snapshotSaved = false;
  /** Where the checkpoint keeps the stores and the families' per-store values (`column`), if it does. */
  readonly #storeTable: StoreTable | undefined;
  /** With a store table: the families with a column, and the record kinds their values are written as. */
  readonly #columns: [Family, FamilyState][] = [];
  readonly #columnKinds = new Set<string>(['s']);
  /** With a store table: stores whose row changed and is not held for a commit yet. */
  readonly #unkept = new Set<number>();
  /** While rows of the store table are applied: they are in the table already. */
  #readingTable = false;

  /**
   * `families`: the families kept (families.ts); another list only in tests. `tables`: where the
   * checkpoint keeps some families' parts (state-tables.ts); the others stay in memory.
   */
  constructor(families: readonly Family[] = FAMILIES, tables?: StateTables) {
    this.#families = families;
    this.#storeTable = tables?.table(STORE_TABLE) as StoreTable | undefined;
    for (const family of families) {
      const table = family.name === undefined ? undefined : tables?.table(family.name);
      const state = table === undefined ? family.create() : family.create(table as never);
      this.#state.set(family, state);
      for (const codec of family.records) this.#byKind.set(codec.kind, state);
      if (family.column === undefined) continue;
      // Such a family's records carry more than the store's value (a video's ids): without a table
      // of its own for that, its records stay in the lines, which name stores the table lists.
      if (this.#storeTable && family.records.some((codec) => codec.more) && table === undefined)
        throw new Error(
          `A checkpoint with a store table keeps the ${family.name ?? 'family'}'s records in a table too.`,
        );
      this.#columns.push([family, state]);
      for (const codec of family.records) this.#columnKinds.add(codec.kind);
    }
  }

  /** A family's state (`bookingFamily`, `videoFamily`, …). */
  family<R extends FamilyRecord, S extends FamilyState<R>>(family: Family<R, S>): S {
    const state = this.#state.get(family);
    if (state === undefined) throw new Error('This watch state keeps no such family.');
    return state as unknown as S;
  }

  storeIndex(id: string): number | undefined {
    return this.#storeIndex.get(id);
  }

  /** The store's number, adding it (and the record that says so) when new. */
  ensureStore(id: string, out: StateRecord[]): number {
    const known = this.#storeIndex.get(id);
    if (known !== undefined) return known;
    const record: StateRecord = ['s', id];
    this.apply(record);
    out.push(record);
    return this.stores.length - 1;
  }

  /** Apply a record and add it to `out` (to be saved once the event it belongs to is confirmed). */
  record(record: StateRecord, out: StateRecord[]): void {
    this.apply(record);
    out.push(record);
  }

  apply(record: StateRecord): void {
    switch (record[0]) {
      case 's': {
        const store = this.stores.push(record[1]);
        this.#storeIndex.add(record[1], store);
        this.#changed(store);
        return;
      }
      case 't':
        this.tail = { cursor: record[1], seen: record[2] };
        return;
      case 'f':
        this.fullAt = record[1];
        return;
      case 'm':
        this.#rollMonth(record[1]);
        return;
      case 'r':
        this.#forget(record[1]);
        return;
      case 'p':
        this.provisional = true;
        return;
      default: {
        const part = this.#byKind.get(record[0]);
        part?.apply(record);
        if (part && this.#columnKinds.has(record[0])) this.#changed(part.storeOf(record) as number);
      }
    }
  }

  /** A store's row of the store table changed (none kept: nothing to do). */
  #changed(store: number): void {
    if (this.#storeTable && !this.#readingTable) this.#unkept.add(store);
  }

  /** Hold the rows of the stores changed since the last time, for the checkpoint's next commit. */
  #keepRows(): void {
    const table = this.#storeTable;
    if (!table) return;
    for (const store of this.#unkept) table.hold(this.#row(store));
    this.#unkept.clear();
  }

  #row(store: number): StoreRow {
    const values: Record<string, string | null> = {};
    for (const [family, state] of this.#columns) values[family.column as string] = state.storeValue?.(store) ?? null;
    return { store, id: this.stores.get(store) as string, values, month: this.month };
  }

  /** Nothing known and never reset: a checkpoint the watcher has not written to yet (every family's record names a store). */
  get blank(): boolean {
    return this.fullAt === null && this.stores.length === 0 && this.resets === 0;
  }

  #forget(at: number, replayed = false): void {
    this.stores.clear();
    this.#storeIndex.clear();
    this.#unkept.clear();
    // A reset read back from the checkpoint: the table was cleared with it and holds what came after.
    if (!replayed) this.#storeTable?.clear();
    for (const state of this.#state.values()) state.forget(replayed);
    this.month = '';
    this.tail = { cursor: null, seen: 0 };
    this.fullAt = null;
    this.seenAt = at;
    this.provisional = false;
    this.resets++;
  }

  /** A new month: each family carries its counts over (or drops them if months were skipped). */
  #rollMonth(month: string): void {
    for (const state of this.#state.values()) state.newMonth?.(this.month, month);
    this.month = month;
  }

  // --- on the checkpoint ---

  /** The snapshot line; with a store table, the stores stay there (what changed is held for it with the line). */
  snapshot(): string {
    const inTable = this.#storeTable !== undefined;
    this.#keepRows();
    const snapshot: Snapshot = {
      format: FORMAT,
      month: this.month,
      tail: this.tail,
      fullAt: this.fullAt,
      stores: inTable ? [] : this.stores.toArray(),
      ...Object.assign({}, ...[...this.#state.values()].map((state) => state.snapshot(inTable))),
      ...this.identity,
      seenAt: this.seenAt,
      resets: this.resets,
      ...(this.provisional ? { provisional: true as const } : {}),
    };
    return JSON.stringify(snapshot);
  }

  /**
   * The state a checkpoint holds, every line checked (`CheckpointInvalidError` for anything that is
   * not a checkpoint of this watcher, or one of another key or service than `identity`; a key in
   * `previousKeys` is taken as this one, a rotation).
   */
  static async load(
    checkpoint: Checkpoint,
    identity?: StateIdentity,
    previousKeys: readonly string[] = [],
    families?: readonly Family[],
  ): Promise<WatchState> {
    const state = new WatchState(families, stateTablesOf(checkpoint));
    for (const part of state.#state.values()) await part.loadTable?.();
    const lines = await checkpoint.load();
    for (const [i, line] of lines.entries()) state.#restore(line, i);
    await state.#readStoreTable();
    if (identity) {
      const saved = state.identity;
      if (saved && saved.key !== identity.key && !previousKeys.includes(saved.key)) {
        throw foreign(
          'API key',
          ` (saved under the key with fingerprint ${saved.key}; this client's is ${identity.key})`,
          ` After a key rotation of the same account, pass previousKeys: ['${saved.key}'] to go on from it instead.`,
        );
      }
      if (saved && saved.service !== identity.service)
        throw foreign('service (base URL)', ` (${saved.service}, this client: ${identity.service})`);
      state.identity = identity;
      // A rotation is written down at once, so the old key's fingerprint is needed only this once.
      if (saved && saved.key !== identity.key) await state.compact(checkpoint, true);
    }
    // A checkpoint written before a family had its table: its records move there with a snapshot that leaves them out.
    if ([...state.#state.values()].some((part) => part.moved) || state.#unkept.size > 0)
      await state.compact(checkpoint, true);
    return state;
  }

  /**
   * The store table's rows, after the checkpoint's lines: those lines list no store once the table
   * exists (a checkpoint written before it lists them all, and its table is empty), and hold no
   * store's value, so the table's rows go on from what the lines left.
   */
  async #readStoreTable(): Promise<void> {
    const table = this.#storeTable;
    if (!table) return;
    const listed = this.stores.length;
    this.#readingTable = true;
    try {
      for await (const rows of table.rows()) {
        if (listed > 0 && rows.length > 0)
          throw invalid(`its lines list ${listed} stores and its store table lists stores too`);
        for (const row of rows) this.#applyRow(row);
      }
    } finally {
      this.#readingTable = false;
    }
  }

  #applyRow(row: StoreRow): void {
    const where = `the store table's row ${row.store}`;
    if (row.store !== this.stores.length)
      throw invalid(`the store table has no row for store number ${this.stores.length}`);
    if (!isStateRecord(['s', row.id], this.#families) || this.#storeIndex.get(row.id) !== undefined)
      throw invalid(`${where} names no store, or one an earlier row names`);
    if (!isStateRecord(['m', row.month], this.#families) && row.month !== '')
      throw invalid(`${where} was written in no month`);
    this.apply(['s', row.id]);
    for (const [family, state] of this.#columns) {
      const value = row.values[family.column as string];
      if (value === null || value === undefined) continue;
      // Checked as written, before a roll to this month could make a valid value of it.
      if (!isStateRecord(state.fromTable?.(row.store, value, row.month, row.month), this.#families))
        throw invalid(`${where} holds no valid ${family.column}`);
      this.apply(state.fromTable?.(row.store, value, row.month, this.month) as StateRecord);
    }
  }

  #restore(text: string, index: number): void {
    const line = readLine(text, index, this.#families);
    if ('records' in line) {
      for (const record of line.records) {
        const store = this.#byKind.get(record[0])?.storeOf(record) ?? -1;
        if (store >= this.stores.length)
          throw invalid(`line ${index + 1} names store number ${store}, which no earlier record added`);
        if (record[0] === 'r') this.#forget(record[1] as number, true);
        else this.apply(record);
      }
      this.#journalBytes += text.length;
      return;
    }
    const s = line.snapshot;
    this.month = s.month;
    this.tail = { cursor: s.tail.cursor, seen: s.tail.seen };
    this.fullAt = s.fullAt;
    this.seenAt = s.seenAt ?? null;
    this.resets = s.resets ?? 0;
    this.provisional = s.provisional === true;
    if (s.key !== undefined && s.service !== undefined) this.identity = { key: s.key, service: s.service };
    for (const id of s.stores) this.apply(['s', id]);
    for (const state of this.#state.values())
      for (const record of state.restore(s, s.stores.length)) state.apply(record);
    this.#snapshotBytes = text.length;
    this.#snapshotSaved = true;
  }

  /** Save the records of one confirmed event (or of a finished poll) as one journal line. */
  async commit(checkpoint: Checkpoint, records: StateRecord[]): Promise<void> {
    if (records.length === 0) return;
    // A checkpoint begins with a snapshot: it names the key and service, and a damaged first line is never taken for a torn last one.
    if (!this.#snapshotSaved) return this.compact(checkpoint, true);
    // A family kept in a table takes its records there; the line (empty, then) still marks the event saved.
    // So does the store table: the rows of the stores these records changed.
    const kept: StateRecord[] = [];
    for (const record of records) {
      const part = this.#byKind.get(record[0]);
      const rest = part?.keep ? part.keep(record) : record;
      if (rest !== undefined && !(this.#storeTable && this.#columnKinds.has(rest[0]))) kept.push(rest as StateRecord);
    }
    this.#keepRows();
    const line = JSON.stringify(kept);
    await checkpoint.save(line);
    this.#journalBytes += line.length;
  }

  /**
   * Replace the journal by a snapshot once the journal outweighs it (or when `force`): writes stay
   * proportional to the changes, and the checkpoint stays under about twice the snapshot's size.
   */
  async compact(checkpoint: Checkpoint, force = false): Promise<void> {
    if (!force && this.#journalBytes < Math.max(64 * 1024, this.#snapshotBytes)) return;
    const snapshot = this.snapshot();
    await checkpoint.save(snapshot, { replace: true });
    this.#snapshotSaved = true;
    this.#snapshotBytes = snapshot.length;
    this.#journalBytes = 0;
  }
}

function foreign(what: string, detail: string, hint = ''): CheckpointInvalidError {
  return new CheckpointInvalidError(
    `The checkpoint belongs to another ${what}${detail}: its events and positions are not this one's. Nothing was changed. ` +
      `Give this watcher a checkpoint of its own (a new path or key), or delete this one to sync from the start as set by startFrom.${hint}`,
  );
}
