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

/** Every booking seen, packed, and how many are in each status. */
export class BookingState implements FamilyState<BookingRecord> {
  readonly #bookings = new Map<string, string>();
  /** Bookings whose status can still change (pending, confirmed). */
  readonly open = new Set<string>();
  readonly counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };

  get size(): number {
    return this.#bookings.size;
  }

  booking(id: string): BookingEntry | undefined {
    const packed = this.#bookings.get(id);
    return packed === undefined ? undefined : unpackBooking(packed);
  }

  apply(record: BookingRecord): void {
    const before = this.#bookings.get(record[1]);
    if (before !== undefined) this.#count(unpackBooking(before), -1);
    const after = unpackBooking(record[2]);
    this.#bookings.set(record[1], record[2]);
    this.#count(after, 1);
    if (after.status === 'pending' || after.status === 'confirmed') this.open.add(record[1]);
    else this.open.delete(record[1]);
  }

  storeOf(record: BookingRecord): number {
    return unpackBooking(record[2]).store;
  }

  snapshot(): Record<string, unknown> {
    return { bookings: Object.fromEntries(this.#bookings) };
  }

  *restore(snapshot: Readonly<Record<string, unknown>>, stores: number): Iterable<BookingRecord> {
    for (const [id, packed] of Object.entries(snapshot.bookings as Record<string, string>)) {
      if (unpackBooking(packed).store >= stores)
        throw invalid(`the snapshot's booking ${id} names a store it does not list`);
      yield ['b', id, packed];
    }
  }

  forget(): void {
    this.#bookings.clear();
    this.open.clear();
    for (const name of Object.keys(this.counts) as Array<keyof Counts>) this.counts[name] = 0;
  }

  #count(entry: BookingEntry, delta: 1 | -1): void {
    if (entry.status in this.counts && entry.status !== 'unacknowledged')
      this.counts[entry.status as keyof Counts] += delta;
    if (entry.ack === null) this.counts.unacknowledged += delta;
  }
}

export const bookingFamily: Family<BookingRecord, BookingState> = {
  records: [bookingRecords],
  snapshot: {
    bookings: { check: (v) => isObject(v) && every(Object.keys(v), id) && every(Object.values(v), isPackedBooking) },
  },
  create: () => new BookingState(),
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
        yield* this.#refreshStores(this.#storesWithDueVisits());
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
      for (const item of lastItems) {
        const month = item.created_at.slice(0, 7);
        if (pass.firstSync && month < pass.earliestMonth && /^\d{4}-\d{2}$/.test(month)) pass.earliestMonth = month;
        if (pass.firstSync && item.status === 'completed') pass.storesWithCompletedVisits.add(item.partner_location_id);
        pass.bookingMonths.note(item);
        yield* this.#diff(item);
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
    const listed = new Set<string>();
    const list = (c: string | undefined) =>
      this.#c.client.reservations.list({ ...page(c), status: 'pending' }, this.#c.lists.options);
    for await (const current of this.#c.lists.walk(list)) {
      this.#created(current.items);
      for (const item of current.items) {
        listed.add(item.reservation_id);
        yield* this.#diff(item);
      }
    }
    const stores = new Set<number>();
    for (const id of this.#bookings.open) {
      const entry = this.#bookings.booking(id);
      if (entry?.status === 'pending' && !listed.has(id)) stores.add(entry.store);
    }
    yield* this.#refreshStores(stores);
  }

  #storesWithDueVisits(): Set<number> {
    const nowMinutes = this.#c.service.now() / 60_000;
    const stores = new Set<number>();
    for (const id of this.#bookings.open) {
      const entry = this.#bookings.booking(id);
      if (entry?.status === 'confirmed' && entry.visit !== null && entry.visit <= nowMinutes) stores.add(entry.store);
    }
    return stores;
  }

  async *#refreshStores(stores: Iterable<number>): AsyncGenerator<Found> {
    for (const index of stores) {
      const storeId = this.#c.state.stores[index] as string;
      const list = (c: string | undefined) =>
        this.#c.client.reservations.listForLocation(storeId, page(c), this.#c.lists.options);
      for await (const current of this.#c.lists.walk(list)) {
        this.#created(current.items);
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
