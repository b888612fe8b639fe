/**
 * The booking family: `reservation.created` and `reservation.updated`.
 *
 * The poll reads on from the saved end of the account's booking list (usually one call) when the
 * summary's booking counts moved, then the pending bookings (`status=pending`: pending ones have no
 * visit_at, so no date window) when the pending count differs, and the stores of bookings that
 * left `pending` or whose visit is due when the other counts differ. The reconciliation reads the
 * whole list. Each booking is one record, `['b', id, packed]`, packed as `store|status|ack|visit`.
 */
import { ValidationError, type Reservation, type Summary } from '../index.js';
import { eventId } from './event-id.js';
import {
  page,
  type Finder,
  type FinderContext,
  type Found,
  type Reconciliation,
  type ReconciliationWanted,
} from './finder.js';
import { invalid } from './checkpoint-invalid.js';
import type { Family, FamilyState } from './family.js';
import { REWOUND } from './history.js';
import { IdHashSet, type IdLookup } from './id-hashes.js';
import {
  decodableParts,
  every,
  id,
  isObject,
  invert,
  packValue,
  unpackValue,
  type Check,
  type RecordCodec,
  type StateRecord,
} from './records.js';

export type { IdLookup } from './id-hashes.js';
export type BookingRecord = ['b', string, string];

export interface BookingEntry {
  store: number;
  status: string;
  ack: string | null;
  /** Visit time in epoch minutes, kept while the booking is confirmed (to find visits that are due). */
  visit: number | null;
}

const STATUS = { pending: 'p', confirmed: 'c', rejected: 'r', cancelled: 'x', completed: 'd', no_show: 'n' } as const;
const ACK = { forwarded_to_manager: 'f', acknowledged_self: 's' } as const;
const STATUS_OF = invert(STATUS);
const ACK_OF = invert(ACK);

export function packBooking(e: BookingEntry): string {
  const ack = e.ack === null ? '' : packValue(e.ack, ACK);
  return `${e.store.toString(36)}|${packValue(e.status, STATUS)}|${ack}|${e.visit === null ? '' : e.visit.toString(36)}`;
}

export function unpackBooking(packed: string): BookingEntry {
  const [store = '0', status = '', ack = '', visit = ''] = packed.split('|');
  return {
    store: parseInt(store, 36),
    status: unpackValue(status, STATUS_OF),
    ack: ack === '' ? null : unpackValue(ack, ACK_OF),
    visit: visit === '' ? null : parseInt(visit, 36),
  };
}

/** `store|status|ack|visit`: base-36 numbers, a known value's letter or `~` and the escaped value. */
const PACKED_BOOKING = /^[0-9a-z]+\|([a-z]|~[^|]*)\|([a-z]|~[^|]*)?\|(-?[0-9a-z]+)?$/;
export const isPackedBooking: Check = (v) => typeof v === 'string' && PACKED_BOOKING.test(v) && decodableParts(v);

export const bookingRecords: RecordCodec<BookingRecord> = { kind: 'b', checks: [id, isPackedBooking] };

/** The entry a booking gets from its wire form. */
export function entryOf(item: Reservation, store: number): BookingEntry {
  const visit = item.status === 'confirmed' && item.visit_at ? Math.floor(Date.parse(item.visit_at) / 60_000) : null;
  return { store, status: item.status, ack: item.acknowledged_kind, visit: Number.isNaN(visit) ? null : visit };
}

/** Of the bookings known, how many are in each status, and not acknowledged. */
export interface Counts {
  pending: number;
  confirmed: number;
  completed: number;
  no_show: number;
  unacknowledged: number;
}

/**
 * A checkpoint's table of bookings (the Postgres mirror's): the state reads from it what a page
 * needs, and the records of confirmed events are written to it with the checkpoint's next commit,
 * so the process holds a bounded cache instead of every booking.
 */
export interface BookingTable {
  /** How many bookings the table holds, and in each status (read once, when the state opens). */
  counts(): Promise<{ size: number; counts: Counts }>;
  /** The packed entries of those of `ids` the table holds (with what it holds for the next commit). */
  read(ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * The stores (each once) of bookings in `status`, with a visit at or before `visitBy` (epoch
   * minutes) when given, leaving out the bookings `except` has. Stores, not bookings: the answer
   * stays the fleet's size however many bookings match. `except` may name every pending booking of
   * a fleet (a walk's `IdHashSet`): it is asked, never listed.
   */
  stores(
    status: 'pending' | 'confirmed',
    options: { visitBy?: number | undefined; except: IdLookup },
  ): Promise<number[]>;
  /** Write a booking's entry with the checkpoint's next commit. */
  hold(id: string, packed: string, entry: BookingEntry): void;
  /** Forget every booking with the next commit (before what is held after). */
  clear(): void;
}

/** Entries kept in memory beside a table: about 100 bytes each. */
export const BOOKING_CACHE = 20_000;

/**
 * Every booking seen, packed, and how many are in each status: in memory, or in a checkpoint's
 * table (`BookingTable`) with a bounded cache, each page's bookings read first (`read`).
 */
export class BookingState implements FamilyState<BookingRecord> {
  readonly #table: BookingTable | undefined;
  /** Every booking (in memory), or those read or applied lately (with a table; null: not in the table). */
  readonly #bookings = new Map<string, string | null>();
  /** With a table: applied, not yet taken for a commit (`keep`). */
  readonly #unsaved = new Map<string, string>();
  /** In memory: bookings whose status can still change (pending, confirmed); with a table, none. */
  readonly open = new Set<string>();
  readonly counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
  #size = 0;
  /** With a table, while loading: the table was empty, so a booking not in the cache is new. */
  #tableEmpty = false;
  /** With a table: what it held when the state opened (a replayed reset goes back to it). */
  #opened: { size: number; counts: Counts } | undefined;
  #loaded = false;
  moved = false;

  constructor(table?: BookingTable) {
    this.#table = table;
  }

  get size(): number {
    return this.#size;
  }

  async loadTable(): Promise<void> {
    if (!this.#table) return;
    const { size, counts } = await this.#table.counts();
    this.#opened = { size, counts: { ...counts } };
    this.#size = size;
    Object.assign(this.counts, counts);
    this.#tableEmpty = size === 0;
  }

  /** Read these bookings from the table (none: all in memory already), so `booking()` has them. */
  async read(ids: readonly string[]): Promise<void> {
    this.#loaded = true;
    if (!this.#table) return;
    const missing = ids.filter((id) => !this.#unsaved.has(id) && !this.#bookings.has(id));
    const found = missing.length === 0 ? new Map<string, string>() : await this.#table.read(missing);
    // The page's cached bookings become the newest before any is added: adding evicts the oldest,
    // and a booking of the page about to be compared must not be among them.
    for (const id of ids) {
      const cached = this.#bookings.get(id);
      if (cached !== undefined) this.#cache(id, cached);
    }
    for (const id of missing) this.#cache(id, found.get(id) ?? null);
  }

  booking(id: string): BookingEntry | undefined {
    const packed = this.#packed(id);
    return packed === undefined ? undefined : unpackBooking(packed);
  }

  #packed(id: string): string | undefined {
    const unsaved = this.#unsaved.get(id);
    if (unsaved !== undefined) return unsaved;
    const packed = this.#bookings.get(id);
    if (packed !== undefined || !this.#table) return packed ?? undefined;
    // Before the first read, only a checkpoint's lines are replayed: new when the table was empty.
    if (!this.#loaded && this.#tableEmpty) return undefined;
    throw new Error(`Booking ${id} was not read from the checkpoint's table before use.`);
  }

  apply(record: BookingRecord): void {
    const before = this.#packed(record[1]);
    if (before !== undefined) this.#count(unpackBooking(before), -1);
    else this.#size++;
    const after = unpackBooking(record[2]);
    this.#count(after, 1);
    if (this.#table) {
      this.#unsaved.set(record[1], record[2]);
      if (!this.#loaded) this.moved = true;
      return;
    }
    this.#bookings.set(record[1], record[2]);
    if (after.status === 'pending' || after.status === 'confirmed') this.open.add(record[1]);
    else this.open.delete(record[1]);
  }

  keep(record: BookingRecord): BookingRecord | undefined {
    if (!this.#table) return record;
    this.#table.hold(record[1], record[2], unpackBooking(record[2]));
    if (this.#unsaved.get(record[1]) === record[2]) this.#unsaved.delete(record[1]);
    this.#cache(record[1], record[2]);
    return undefined;
  }

  storeOf(record: BookingRecord): number {
    return unpackBooking(record[2]).store;
  }

  snapshot(): Record<string, unknown> {
    if (!this.#table) return { bookings: Object.fromEntries(this.#bookings) };
    // With a table, the snapshot holds none: what was applied and not yet taken goes to the table with it.
    for (const [id, packed] of [...this.#unsaved]) this.keep(['b', id, packed]);
    this.moved = false;
    return { bookings: {} };
  }

  *restore(snapshot: Readonly<Record<string, unknown>>, stores: number): Iterable<BookingRecord> {
    for (const [id, packed] of Object.entries(snapshot.bookings as Record<string, string>)) {
      if (unpackBooking(packed).store >= stores)
        throw invalid(`the snapshot's booking ${id} names a store it does not list`);
      yield ['b', id, packed];
    }
  }

  forget(replayed = false): void {
    this.#bookings.clear();
    this.#unsaved.clear();
    this.open.clear();
    for (const name of Object.keys(this.counts) as Array<keyof Counts>) this.counts[name] = 0;
    // A reset read back from the checkpoint: the table was cleared with it and holds what came after.
    const kept = replayed ? this.#opened : undefined;
    if (!kept) this.#table?.clear();
    this.#size = kept?.size ?? 0;
    this.#tableEmpty = this.#size === 0;
    if (kept) Object.assign(this.counts, kept.counts);
  }

  /** The stores of pending bookings not in `listed` (the pending list just read). */
  pendingStoresNotIn(listed: IdLookup): Promise<Set<number>> {
    return this.#storesWith('pending', undefined, listed);
  }

  /** The stores of confirmed bookings whose visit is due by `minute` (epoch minutes). */
  storesWithVisitsBy(minute: number): Promise<Set<number>> {
    return this.#storesWith('confirmed', minute);
  }

  async #storesWith(status: 'pending' | 'confirmed', visitBy?: number, except?: IdLookup): Promise<Set<number>> {
    const matches = (id: string, e: BookingEntry) =>
      e.status === status && (visitBy === undefined || (e.visit !== null && e.visit <= visitBy)) && !except?.has(id);
    const stores = new Set<number>();
    if (!this.#table) {
      for (const id of this.open) {
        const entry = this.booking(id);
        if (entry && matches(id, entry)) stores.add(entry.store);
      }
      return stores;
    }
    // What is applied and not yet taken for a commit is newer than the table's rows.
    const unsaved = this.#unsaved;
    const skip: IdLookup = { has: (id) => unsaved.has(id) || except?.has(id) === true };
    for (const store of await this.#table.stores(status, { visitBy, except: skip })) stores.add(store);
    for (const [id, packed] of this.#unsaved) {
      const entry = unpackBooking(packed);
      if (matches(id, entry)) stores.add(entry.store);
    }
    return stores;
  }

  #cache(id: string, packed: string | null): void {
    this.#bookings.delete(id);
    this.#bookings.set(id, packed);
    // The oldest go first; those of the page being read were just added.
    for (const old of this.#bookings.keys()) {
      if (this.#bookings.size <= BOOKING_CACHE) break;
      this.#bookings.delete(old);
    }
  }

  #count(entry: BookingEntry, delta: 1 | -1): void {
    if (entry.status in this.counts && entry.status !== 'unacknowledged')
      this.counts[entry.status as keyof Counts] += delta;
    if (entry.ack === null) this.counts.unacknowledged += delta;
  }
}

export const bookingFamily: Family<BookingRecord, BookingState, BookingTable> = {
  name: 'bookings',
  records: [bookingRecords],
  snapshot: {
    bookings: { check: (v) => isObject(v) && every(Object.keys(v), id) && every(Object.values(v), isPackedBooking) },
  },
  create: (table) => new BookingState(table),
  finder: (context) => new BookingFinder(context),
};

type SummaryCounts = Summary['reservations'];

export class BookingFinder implements Finder {
  readonly #c: FinderContext;
  readonly #bookings: BookingState;
  #lastSummary: string | undefined;
  /** The poll's read of the list's end found the history gone back: nothing more to compare against. */
  #rewound = false;
  wants: ReconciliationWanted | undefined;

  constructor(context: FinderContext) {
    this.#c = context;
    this.#bookings = context.state.family(bookingFamily);
  }

  async *poll(summary: Summary): AsyncGenerator<Found> {
    const counts = summary.reservations;
    const key = JSON.stringify(counts);
    this.wants = undefined;
    if (key !== this.#lastSummary || !this.countsMatch(counts)) {
      try {
        yield* this.#tail();
      } catch (error) {
        if (!(error instanceof ValidationError && error.field === 'cursor')) throw error;
        this.wants = 'position refused';
        return;
      }
      if (this.#rewound) return;
      if (this.#bookings.counts.pending !== counts.pending) yield* this.#pending();
      const s = this.#bookings.counts;
      if (s.confirmed !== counts.confirmed || s.completed !== counts.completed || s.no_show !== counts.no_show) {
        yield* this.#refreshStores(await this.#storesWithDueVisits());
      }
    }
    this.#lastSummary = key;
    if (!this.countsMatch(counts)) this.wants = 'mismatch';
  }

  /** Every booking; ends with the list's end saved, so the next poll reads on from there. */
  async *reconcile(pass: Reconciliation): AsyncGenerator<Found> {
    const state = this.#c.state;
    let cursor: string | null = null;
    let lastNext: string | null | undefined;
    let lastItems: Reservation[] = [];
    let listed = 0;
    const list = (c: string | undefined) => this.#c.client.reservations.list(page(c), this.#c.lists.options);
    for await (const current of this.#c.lists.walk(list)) {
      if (lastNext) cursor = lastNext;
      lastNext = current.nextCursor;
      lastItems = distinctBookings(current.items);
      this.#created(lastItems);
      listed += lastItems.length;
      await this.#read(lastItems);
      for (const item of lastItems) {
        const month = item.created_at.slice(0, 7);
        if (pass.firstSync && month < pass.earliestMonth && /^\d{4}-\d{2}$/.test(month)) pass.earliestMonth = month;
        pass.bookingMonths.note(item);
        yield* this.#diff(item);
        // After the diff, which numbers a store met for the first time: a numbered store is a bit of the set.
        if (item.status === 'completed') pass.storesWithCompletedVisits.add(item.partner_location_id);
      }
    }
    // Every booking listed is in the state now: any more it holds are gone from the service.
    if (this.#bookings.size > listed) this.#c.historyWentBack(REWOUND.bookings);
    const tail: Found = { records: [] };
    state.record(['t', cursor, lastItems.length], tail.records);
    yield tail;
    this.wants = undefined;
  }

  /** The state's booking counts are the summary's. */
  countsMatch(counts: SummaryCounts): boolean {
    const s = this.#bookings.counts;
    return (
      s.pending === counts.pending &&
      s.confirmed === counts.confirmed &&
      s.completed === counts.completed &&
      s.no_show === counts.no_show &&
      s.unacknowledged === counts.unacknowledged
    );
  }

  /** Bookings added since the saved end of the list. */
  async *#tail(): AsyncGenerator<Found> {
    const state = this.#c.state;
    let { cursor, seen } = state.tail;
    const list = (c: string | undefined) => this.#c.client.reservations.list(page(c), this.#c.lists.options);
    let first = true;
    this.#rewound = false;
    for await (const current of this.#c.lists.walk(list, cursor ?? undefined)) {
      const items = distinctBookings(current.items);
      // The items after a position only grow while the history moves forward.
      if (first && items.length < seen) {
        this.#rewound = true;
        this.#c.historyWentBack(REWOUND.list);
        this.#created(items);
        return;
      }
      this.#created(items);
      first = false;
      await this.#read(items.slice(seen));
      for (const item of items.slice(seen)) yield* this.#diff(item);
      if (current.nextCursor) ({ cursor, seen } = { cursor: current.nextCursor, seen: 0 });
      else seen = items.length;
    }
    const found: Found = { records: [] };
    state.record(['t', cursor, seen], found.records);
    yield found;
  }

  /** Every pending booking; the stores of known pending ones that are gone from the list are read again. */
  async *#pending(): AsyncGenerator<Found> {
    // Every pending booking of the account, a quarter of a million at 100,000 stores: kept by hash.
    const listed = new IdHashSet();
    const list = (c: string | undefined) =>
      this.#c.client.reservations.list({ ...page(c), status: 'pending' }, this.#c.lists.options);
    for await (const current of this.#c.lists.walk(list)) {
      this.#created(current.items);
      await this.#read(current.items);
      for (const item of current.items) {
        listed.add(item.reservation_id);
        yield* this.#diff(item);
      }
    }
    yield* this.#refreshStores(await this.#bookings.pendingStoresNotIn(listed));
  }

  /** The stores of confirmed bookings whose visit is due. */
  #storesWithDueVisits(): Promise<Set<number>> {
    return this.#bookings.storesWithVisitsBy(this.#c.service.now() / 60_000);
  }

  /** A page's bookings, read from the checkpoint's table when it keeps them (one query a page). */
  #read(items: readonly Reservation[]): Promise<void> {
    return this.#bookings.read(items.map((item) => item.reservation_id));
  }

  async *#refreshStores(stores: Iterable<number>): AsyncGenerator<Found> {
    for (const index of stores) {
      const storeId = this.#c.state.stores.get(index) as string;
      const list = (c: string | undefined) =>
        this.#c.client.reservations.listForLocation(storeId, page(c), this.#c.lists.options);
      for await (const current of this.#c.lists.walk(list)) {
        this.#created(current.items);
        await this.#read(current.items);
        for (const item of current.items) yield* this.#diff(item);
      }
    }
  }

  /** The service's clock has come at least as far as the latest of these bookings' creation (`ServiceClock.reached`). */
  #created(items: readonly Reservation[]): void {
    for (const item of items) this.#c.service.reached(Date.parse(item.created_at));
  }

  /** The event (if any) that `item` makes against the state, with its records. */
  *#diff(item: Reservation): Generator<Found> {
    const state = this.#c.state;
    const records: StateRecord[] = [];
    const store = state.ensureStore(item.partner_location_id, records);
    const before = this.#bookings.booking(item.reservation_id);
    const after = entryOf(item, store);
    const packed = packBooking(after);
    if (before && packBooking(before) === packed) return;
    state.record(['b', item.reservation_id, packed], records);
    const base = {
      created_at: new Date(this.#c.service.now()).toISOString(),
      partner_location_id: item.partner_location_id,
      data: item,
    };
    if (!before) {
      yield { event: { ...base, id: eventId(`c|${item.reservation_id}`), type: 'reservation.created' }, records };
      return;
    }
    const previous: Partial<Pick<Reservation, 'status' | 'acknowledged_kind'>> = {};
    if (before.status !== after.status) previous.status = before.status;
    if (before.ack !== after.ack) previous.acknowledged_kind = before.ack;
    if (Object.keys(previous).length === 0) {
      yield { records }; // only the visit time moved: tracked, not an event of its own
      return;
    }
    const id = eventId(
      `u|${item.reservation_id}|${before.status}>${after.status}|${before.ack ?? ''}>${after.ack ?? ''}`,
    );
    yield { event: { ...base, id, type: 'reservation.updated', previous }, records };
  }
}

/**
 * A page's bookings, each once. Positions in the booking list count bookings, not entries: a page
 * that repeats one would otherwise leave a position past the end of the next, correct page, which
 * reads as a history gone back.
 */
function distinctBookings(items: Reservation[]): Reservation[] {
  return [...new Map(items.map((item) => [item.reservation_id, item])).values()];
}
