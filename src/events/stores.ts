/**
 * The store family: `location.updated`, only for a watcher started with `stores`.
 *
 * The spec lists no stores (no `GET /locations`), so a store record is one read each
 * (`GET /locations/{id}`), and the family reads as few as it can:
 * - at once, a store whose bookings or videos moved in the same pass (the other finders run first)
 *   and a store the state holds but never read;
 * - a store the state does not hold yet: when the summary's `locations.total` is above the stores
 *   known, this month's billing (which lists every store enrolled, zeros included; one call per 200
 *   stores) at most once per `scanSpacing`, and at each reconciliation from the billing rows the
 *   video family read;
 * - every store again at the `refreshMs` cadence, in turn (the longest-unread first), at most a
 *   tenth of the watcher's share of the budget (`CADENCE_SHARE`);
 * - while the summary's store counts (status, hours missing) differ from those read, up to that
 *   tenth again per pass, in turn, until they agree or every store was read once for that summary.
 * A reconciliation reads every store on a first sync, and otherwise what a poll would (the stores
 * the video family's billing rows list added to the state).
 *
 * Each store is one record, `['l', store, 'status|hash[|m]']`: its status (a letter, or `~` and the
 * escaped value), a 64-bit hash of the record as returned, and `m` while its hours are missing.
 */
import { NotFoundError, type Location, type Summary } from '../index.js';
import { eventId } from './event-id.js';
import { page, type Finder, type FinderContext, type Found, type Reconciliation } from './finder.js';
import { invalid } from './checkpoint-invalid.js';
import type { Family, FamilyState } from './family.js';
import type { StoreSet } from './store-set.js';
import { StoreRecordSlots } from './store-record-slots.js';
import {
  byStoreNumber,
  count,
  decodableParts,
  invert,
  packValue,
  unpackValue,
  type Check,
  type RecordCodec,
  type StateRecord,
} from './records.js';

export type StoreRecord = ['l', number, string];

export interface StoreEntry {
  status: string;
  /** The store record's hash (16 hex digits): a change in any field changes it. */
  hash: string;
  hoursMissing: boolean;
}

const STATUS = { active: 'a', paused: 'p', terminated: 't' } as const;
const STATUS_OF = invert(STATUS);

export const packStore = (e: StoreEntry): string =>
  `${packValue(e.status, STATUS)}|${e.hash}${e.hoursMissing ? '|m' : ''}`;

export function unpackStore(packed: string): StoreEntry {
  const [status = '', hash = '', missing] = packed.split('|');
  return { status: unpackValue(status, STATUS_OF), hash, hoursMissing: missing === 'm' };
}

/** `status|hash[|m]`. */
const PACKED_STORE = /^([a-z]|~[^|]*)\|[0-9a-f]{16}(\|m)?$/;
export const isPackedStore: Check = (v) => typeof v === 'string' && PACKED_STORE.test(v) && decodableParts(v);

export const storeRecords: RecordCodec<StoreRecord> = { kind: 'l', checks: [count, isPackedStore] };

/** Of the stores read (the store family), how many are in each status, and with hours missing. */
export interface StoreCounts {
  read: number;
  active: number;
  paused: number;
  terminated: number;
  hours_missing: number;
}

/** Per store, its record as last read, and how many are in each status. */
export class StoreState implements FamilyState<StoreRecord> {
  readonly #records = new StoreRecordSlots();
  readonly counts: StoreCounts = { read: 0, active: 0, paused: 0, terminated: 0, hours_missing: 0 };

  /** The store's record as last read (`status|hash[|m]`), or undefined before its first read. */
  record(store: number): string | undefined {
    return this.#records.get(store);
  }

  apply(record: StoreRecord): void {
    const before = this.#records.get(record[1]);
    if (before !== undefined) this.#count(before, -1);
    this.#records.set(record[1], record[2]);
    this.#count(record[2], 1);
  }

  storeOf(record: StoreRecord): number {
    return record[1];
  }

  snapshot(storesInTable = false): Record<string, unknown> {
    return this.#records.size > 0 && !storesInTable ? { locations: this.#records.byNumber() } : {};
  }

  storeValue(store: number): string | undefined {
    return this.#records.get(store);
  }

  fromTable(store: number, value: string): StoreRecord {
    return ['l', store, value];
  }

  *restore(snapshot: Readonly<Record<string, unknown>>, stores: number): Iterable<StoreRecord> {
    for (const [store, packed] of Object.entries((snapshot.locations ?? {}) as Record<string, string>)) {
      if (Number(store) >= stores)
        throw invalid(`the snapshot holds the record of store number ${store}, which it does not list`);
      yield ['l', Number(store), packed];
    }
  }

  forget(): void {
    this.#records.clear();
    for (const name of Object.keys(this.counts) as Array<keyof StoreCounts>) this.counts[name] = 0;
  }

  #count(packed: string, delta: 1 | -1): void {
    const entry = unpackStore(packed);
    this.counts.read += delta;
    if (entry.status === 'active' || entry.status === 'paused' || entry.status === 'terminated')
      this.counts[entry.status] += delta;
    if (entry.hoursMissing) this.counts.hours_missing += delta;
  }
}

export const storeFamily: Family<StoreRecord, StoreState> = {
  column: 'location',
  records: [storeRecords],
  /** Per store number, its record as last read; missing when none was read. */
  snapshot: { locations: { check: byStoreNumber(isPackedStore), optional: true } },
  create: () => new StoreState(),
  finder: (context, { stores, scanSpacing, touched }) =>
    stores && new StoreFinder(context, { ...stores, scanSpacing, touched }),
};

/** The entry a store gets from its wire form. */
export const storeEntryOf = (store: Location): StoreEntry => ({
  status: store.status,
  hash: eventId(JSON.stringify(store)).slice(4),
  hoursMissing: store.hours?.state === 'missing',
});

/** The part of the watcher's share of the budget the cadence and a chase may each take. */
export const CADENCE_SHARE = 0.1;

export interface StoreFinderOptions {
  /** Every store is read again at least this often (ms), within `CADENCE_SHARE`. */
  refreshMs: number;
  /** The watcher's share of the key's budget. */
  budgetShare: number;
  /** Shortest time between two billing reads of a poll for new stores (ms). */
  scanSpacing: number;
  /** Stores whose bookings or videos moved since they were last read (filled by the detector). */
  touched: StoreSet;
  /** Told of a read that found the store as its record holds (no event): the service's time of the answer. */
  onUnchanged?: ((store: Location, at: string) => void) | undefined;
}

type SummaryStoreCounts = Summary['locations'];

export class StoreFinder implements Finder {
  readonly #c: FinderContext;
  readonly #stores: StoreState;
  readonly #o: StoreFinderOptions;
  readonly wants = undefined;
  /** Stores numbered below this were looked at for a first read. */
  #checkedUpTo = 0;
  /** The next store in turn for the cadence and a chase. */
  #turn = 0;
  /** Reads the cadence owes (a fraction carried from pass to pass), and when it was last counted. */
  #owed = 0;
  #owedAt: number | undefined;
  #scanAt = Number.NEGATIVE_INFINITY;
  #unexplainedTotal: number | undefined;
  /** The summary's store counts being chased, and how many stores were read for them. */
  #chase: { key: string; reads: number } | undefined;

  constructor(context: FinderContext, options: StoreFinderOptions) {
    this.#c = context;
    this.#stores = context.state.family(storeFamily);
    this.#o = options;
  }

  forget(): void {
    this.#checkedUpTo = 0;
    this.#turn = 0;
    this.#chase = undefined;
    this.#unexplainedTotal = undefined;
  }

  async *poll(summary: Summary): AsyncGenerator<Found> {
    const counts = summary.locations;
    const unknown = () => counts.total > this.#c.state.stores.length;
    const scanDue = this.#c.local() - this.#scanAt >= this.#o.scanSpacing;
    if (unknown() && scanDue && this.#unexplainedTotal !== counts.total) {
      this.#scanAt = this.#c.local();
      yield* this.#billedStores();
      // Billing is one call per 200 stores: a total it cannot explain is not scanned for again until it moves.
      this.#unexplainedTotal = unknown() ? counts.total : undefined;
    }
    yield* this.#read(this.#due(false));
    yield* this.#read(this.#chased(counts));
  }

  async *reconcile(pass: Reconciliation): AsyncGenerator<Found> {
    const records: StateRecord[] = [];
    for (const store of pass.storesBilled) this.#c.state.ensureStore(store, records);
    if (records.length > 0) yield { records };
    yield* this.#read(this.#due(pass.firstSync));
    if (!pass.firstSync && pass.summary) yield* this.#read(this.#chased(pass.summary.locations));
  }

  /** Every store this month's billing lists (all enrolled), added to the state. */
  async *#billedStores(): AsyncGenerator<Found> {
    const month = this.#c.state.month;
    const list = (c: string | undefined) =>
      this.#c.client.reports.billingMonthly(month, page(c), this.#c.lists.options);
    for await (const current of this.#c.lists.walk(list)) {
      const records: StateRecord[] = [];
      for (const row of current.items) this.#c.state.ensureStore(row.partner_location_id, records);
      if (records.length > 0) yield { records };
    }
  }

  /** The stores to read this pass, by number, each once: moved, never read, and the cadence's in turn. */
  #due(everyStore: boolean): Iterable<number> {
    const state = this.#c.state;
    const n = state.stores.length;
    if (everyStore) {
      // Every store, in number order: the others would add nothing, but the cadence's turn moves on.
      this.#checkedUpTo = n;
      this.#inTurn(this.#cadence(n));
      return numbersBelow(n);
    }
    const due = new Set<number>();
    for (const id of this.#o.touched) {
      const index = state.storeIndex(id);
      if (index !== undefined) due.add(index);
    }
    for (; this.#checkedUpTo < n; this.#checkedUpTo++)
      if (this.#stores.record(this.#checkedUpTo) === undefined) due.add(this.#checkedUpTo);
    this.#inTurn(this.#cadence(n), due);
    return due;
  }

  /**
   * While the summary's store counts differ from those read: the next stores in turn, a tenth of
   * the share a pass, until every store was read once for these counts.
   */
  #chased(counts: SummaryStoreCounts): Set<number> {
    const chased = new Set<number>();
    if (this.#explained(counts)) return chased;
    const key = JSON.stringify(counts);
    if (this.#chase?.key !== key) this.#chase = { key, reads: 0 };
    const reads = Math.max(0, Math.min(this.#perWindow(), this.#c.state.stores.length - this.#chase.reads));
    this.#chase.reads += reads;
    this.#inTurn(reads, chased);
    return chased;
  }

  /** The next `count` stores in turn (each at most once), added `into` the set given. */
  #inTurn(count: number, into?: Set<number>): void {
    const n = this.#c.state.stores.length;
    for (let k = 0; k < Math.min(count, n); k++) {
      into?.add(this.#turn % n);
      this.#turn = (this.#turn + 1) % n;
    }
  }

  /** How many stores the cadence owes since the last pass: one round per `refreshMs`, within its part of the budget. */
  #cadence(n: number): number {
    const now = this.#c.local();
    const since = this.#owedAt === undefined ? 0 : now - this.#owedAt;
    this.#owedAt = now;
    const window = this.#c.client.rateLimit?.windowMs ?? 60_000;
    const perMs = Math.min(n / this.#o.refreshMs, this.#perWindow() / window);
    this.#owed = Math.min(n, this.#owed + perMs * since);
    const owed = Math.floor(this.#owed);
    this.#owed -= owed;
    return owed;
  }

  /** A tenth of the watcher's calls in one window of the key's limit. */
  #perWindow(): number {
    const limit = this.#c.client.rateLimit?.limit ?? 600;
    return Math.max(1, Math.floor(limit * this.#o.budgetShare * CADENCE_SHARE));
  }

  /** The state's store counts are the summary's (every store read). */
  #explained(counts: SummaryStoreCounts): boolean {
    const c = this.#stores.counts;
    return (
      c.read === counts.total &&
      c.active === counts.active &&
      c.paused === counts.paused &&
      c.terminated === counts.terminated &&
      c.hours_missing === counts.hours_missing
    );
  }

  async *#read(stores: Iterable<number>): AsyncGenerator<Found> {
    const state = this.#c.state;
    for (const index of stores) {
      const storeId = state.stores.get(index) as string;
      this.#o.touched.delete(storeId);
      let store: Location;
      try {
        const answer = await this.#c.lists.call(() =>
          this.#c.client.locations.get(storeId, this.#c.lists.options).withResponse(),
        );
        this.#c.service.observe(answer.response.headers);
        store = answer.data;
      } catch (error) {
        // A store the service no longer knows has no record to mirror; its bookings and videos stay.
        if (error instanceof NotFoundError) continue;
        throw error;
      }
      yield* this.#diff(index, store);
    }
  }

  *#diff(index: number, store: Location): Generator<Found> {
    const state = this.#c.state;
    const packed = this.#stores.record(index);
    const before = packed === undefined ? undefined : unpackStore(packed);
    const after = storeEntryOf(store);
    if (before?.hash === after.hash && before.hoursMissing === after.hoursMissing && before.status === after.status) {
      // The record compared is the last found for the store, saved before this read (the watcher saves each event's record before it goes on).
      this.#o.onUnchanged?.(store, new Date(this.#c.service.now()).toISOString());
      return;
    }
    const records: StateRecord[] = [];
    state.record(['l', index, packStore(after)], records);
    const previous: Partial<Pick<Location, 'status'>> =
      before && before.status !== after.status ? { status: before.status as Location['status'] } : {};
    yield {
      event: {
        id: eventId(`l|${store.partner_location_id}|${before?.hash ?? ''}>${after.hash}`),
        type: 'location.updated',
        created_at: new Date(this.#c.service.now()).toISOString(),
        partner_location_id: store.partner_location_id,
        data: store,
        previous,
      },
      records,
    };
  }
}

/** 0, 1, …, n − 1, without a set of them (a first sync's reads at 100,000 stores). */
function* numbersBelow(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}
