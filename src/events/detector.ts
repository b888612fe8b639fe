/**
 * Finding changes: compare what the service shows with the watcher's state, as cheaply as the
 * service allows. Each change becomes an event with the state records that confirm it; records
 * are applied to the state at once (so one change is never found twice in a poll) and saved by
 * the watcher only after the loop body has finished with the event.
 *
 * A quick poll reads the summary (one call) and looks further only where its counts moved:
 * new bookings at the end of the account's booking list (a saved cursor: usually one call),
 * pending bookings (`status=pending`; pending ones have no visit_at, so no date window), the
 * stores of bookings that left `pending` or whose visit is due, and, when the video total moved,
 * the month's billing counts per store and the content of the stores whose count moved.
 * A full reconciliation reads every booking and the billing counts of this month and the last.
 *
 * "Now" is the service's time (`ServiceClock`), read from every response: the month billing is
 * read for, whether a visit is due and when a change was found are all compared with the service's
 * data. Near a month's first moment the next month's counts are read too, and a store with a video
 * posted that close to it is read until billing's count for it is one its content explains
 * (`BilledCounts`), then again only when that count moves: the spec does not say whether billing
 * counts months in UTC or in the store's time zone, and either way no video is missed.
 */
import { ValidationError, type Page, type PagePromise, type PartnerClient, type RequestOptions, type Reservation, type Summary } from '../index.js';
import { eventId } from './event-id.js';
import { BilledCounts } from './billed-counts.js';
import { clockWentBack, REWOUND } from './history.js';
import { BookingMonths } from './month-bounds.js';
import { edgeOf, entryOf, monthOf, nextMonth, packBooking, previousMonth, ZONE_REACH_MS, type StateRecord, type WatchState } from './state.js';
import type { CallBudget } from './call-budget.js';
import type { ServiceClock } from './service-clock.js';
import type { PartnerEvent } from './types.js';

/** An event to deliver (or none, for bookkeeping) and the records that confirm it. */
export interface Found {
  event?: PartnerEvent;
  records: StateRecord[];
}

export interface DetectorContext {
  client: PartnerClient;
  budget: CallBudget;
  state: WatchState;
  /** The service's time: every comparison with the service's data. */
  service: ServiceClock;
  /** The client's monotonic reading: only to measure intervals. */
  local: () => number;
  signal: AbortSignal;
  onCall: () => void;
  /** Shortest time between two billing scans of a quick poll (ms). */
  videoScanSpacing: number;
}

const PAGE = 200;
type SummaryCounts = Summary['reservations'];

export class Detector {
  readonly #c: DetectorContext;
  #lastSummary: string | undefined;
  /** A video total that billing could not explain; not chased again until the total moves. */
  #unexplainedVideos: number | undefined;
  #videoScanAt = Number.NEGATIVE_INFINITY;
  readonly #billed = new BilledCounts();
  /** Counts still differed from the summary after a quick poll: something only a full pass finds. */
  mismatch = false;
  /** The saved end of the list was refused: only a full pass can find it again. */
  needFull = false;
  /** Why the service's history went back under the checkpoint, once seen: the next full pass starts again from nothing. */
  rewound: string | undefined;

  constructor(context: DetectorContext) {
    this.#c = context;
  }

  get #options(): RequestOptions {
    return { signal: this.#c.signal };
  }

  /**
   * The account's summary; its response also sets the service's time for the poll that follows,
   * read again while no answers agree on that time yet (`ServiceClock.needsConfirming`).
   */
  async summary(): Promise<Summary> {
    let data: Summary;
    let reads = 0;
    do {
      const answer = await this.#call(() => this.#c.client.reports.summary(this.#options).withResponse());
      data = answer.data;
      this.#c.service.observe(answer.response.headers, data.generated_at);
    } while (this.#c.service.needsConfirming(++reads));
    if (clockWentBack(this.#c.state, this.#c.service)) this.rewound ??= REWOUND.clock;
    return data;
  }

  async *quick(summary: Summary): AsyncGenerator<Found> {
    yield* this.#rollMonth();
    const counts = summary.reservations;
    const key = JSON.stringify(counts);
    if (key !== this.#lastSummary || !this.#countsMatch(counts)) {
      try {
        yield* this.#tail();
      } catch (error) {
        if (!(error instanceof ValidationError && error.field === 'cursor')) throw error;
        this.needFull = true;
        return;
      }
      if (this.rewound) return;
      if (this.#c.state.counts.pending !== counts.pending) yield* this.#pending();
      const s = this.#c.state.counts;
      if (s.confirmed !== counts.confirmed || s.completed !== counts.completed || s.no_show !== counts.no_show) {
        yield* this.#refreshStores(this.#storesWithDueVisits());
      }
    }
    // Billing is one call per 200 stores: read it at most once per videoScanSpacing.
    const videosDue = this.#c.local() - this.#videoScanAt >= this.#c.videoScanSpacing;
    const explained = () => this.#c.state.videoTotal === summary.videos_published;
    if (videosDue && !explained() && this.#unexplainedVideos !== summary.videos_published) {
      this.#videoScanAt = this.#c.local();
      for (const month of this.#recentMonths()) {
        if (!explained()) yield* this.#videos([month], explained);
      }
      if (!explained()) this.#unexplainedVideos = summary.videos_published;
    }
    this.#lastSummary = key;
    this.mismatch = !this.#countsMatch(counts);
  }

  /** Every booking, and the video counts of this month and the last (every month on a first sync). */
  async *full(): AsyncGenerator<Found> {
    const state = this.#c.state;
    const startedAt = this.#c.service.now();
    if (this.rewound) {
      const forget: Found = { records: [] };
      state.record(['r', startedAt], forget.records);
      this.#billed.clear();
      this.rewound = undefined;
      yield forget;
    }
    const firstSync = state.fullAt === null;
    yield* this.#rollMonth();
    let earliest = state.month;
    const withCompletedVisits = new Set<string>();
    let cursor: string | null = null;
    let last: Page<Reservation> | undefined;
    let lastItems: Reservation[] = [];
    let listed = 0;
    const bookingMonths = new BookingMonths();
    for await (const page of this.#walk((c) => this.#c.client.reservations.list({ limit: PAGE, ...(c ? { cursor: c } : {}) }, this.#options))) {
      if (last?.nextCursor) cursor = last.nextCursor;
      last = page;
      lastItems = distinctBookings(page.items);
      listed += lastItems.length;
      for (const item of lastItems) {
        // Videos follow visits, so none is older than the oldest booking.
        const month = item.created_at.slice(0, 7);
        if (firstSync && month < earliest && /^\d{4}-\d{2}$/.test(month)) earliest = month;
        if (firstSync && item.status === 'completed') withCompletedVisits.add(item.partner_location_id);
        bookingMonths.note(item);
        yield* this.#diff(item);
      }
    }
    // Every booking listed is in the state now: any more it holds are gone from the service.
    if (state.bookingCount > listed) this.rewound = REWOUND.bookings;
    const tail: Found = { records: [] };
    state.record(['t', cursor, lastItems.length], tail.records);
    yield tail;
    const recent = this.#recentMonths();
    const months = firstSync ? [...new Set([...monthsFrom(earliest, bookingMonths.lastOf(state.month)), ...recent])] : recent;
    // On a first sync, also every store with a completed visit (videos follow completed visits):
    // billing lists a store only for months it was enrolled in, and its history may be older.
    yield* this.#videos(months, undefined, firstSync ? withCompletedVisits : undefined);
    const done: Found = { records: [] };
    state.record(['f', startedAt], done.records);
    yield done;
    this.mismatch = false;
    this.needFull = false;
  }

  /**
   * The billing months a recent video can be counted in: this one (UTC), the last, and the next
   * while a store somewhere may already be in it.
   */
  #recentMonths(): string[] {
    const month = this.#c.state.month;
    const ahead = monthOf(this.#c.service.now() + ZONE_REACH_MS);
    return ahead === month ? [month, previousMonth(month)] : [month, previousMonth(month), ahead];
  }

  async *#rollMonth(): AsyncGenerator<Found> {
    const month = monthOf(this.#c.service.now());
    if (month === this.#c.state.month) return;
    this.#billed.forgetBefore(previousMonth(month));
    const found: Found = { records: [] };
    this.#c.state.record(['m', month], found.records);
    yield found;
  }

  /** Bookings added since the saved end of the list. */
  async *#tail(): AsyncGenerator<Found> {
    const state = this.#c.state;
    let { cursor, seen } = state.tail;
    const list = (c: string | undefined) => this.#c.client.reservations.list({ limit: PAGE, ...(c ? { cursor: c } : {}) }, this.#options);
    let first = true;
    for await (const page of this.#walk(list, cursor ?? undefined)) {
      const items = distinctBookings(page.items);
      // The items after a position only grow while the history moves forward.
      if (first && items.length < seen) {
        this.rewound = REWOUND.list;
        return;
      }
      first = false;
      for (const item of items.slice(seen)) yield* this.#diff(item);
      if (page.nextCursor) ({ cursor, seen } = { cursor: page.nextCursor, seen: 0 });
      else seen = items.length;
    }
    const found: Found = { records: [] };
    state.record(['t', cursor, seen], found.records);
    yield found;
  }

  /** Every pending booking; the stores of known pending ones that are gone from the list are read again. */
  async *#pending(): AsyncGenerator<Found> {
    const listed = new Set<string>();
    const list = (c: string | undefined) => this.#c.client.reservations.list({ limit: PAGE, status: 'pending', ...(c ? { cursor: c } : {}) }, this.#options);
    for await (const page of this.#walk(list)) {
      for (const item of page.items) {
        listed.add(item.reservation_id);
        yield* this.#diff(item);
      }
    }
    const stores = new Set<number>();
    for (const id of this.#c.state.open) {
      const entry = this.#c.state.booking(id);
      if (entry?.status === 'pending' && !listed.has(id)) stores.add(entry.store);
    }
    yield* this.#refreshStores(stores);
  }

  #storesWithDueVisits(): Set<number> {
    const nowMinutes = this.#c.service.now() / 60_000;
    const stores = new Set<number>();
    for (const id of this.#c.state.open) {
      const entry = this.#c.state.booking(id);
      if (entry?.status === 'confirmed' && entry.visit !== null && entry.visit <= nowMinutes) stores.add(entry.store);
    }
    return stores;
  }

  async *#refreshStores(stores: Iterable<number>): AsyncGenerator<Found> {
    for (const index of stores) {
      const id = this.#c.state.stores[index] as string;
      const list = (c: string | undefined) => this.#c.client.reservations.listForLocation(id, { limit: PAGE, ...(c ? { cursor: c } : {}) }, this.#options);
      for await (const page of this.#walk(list)) for (const item of page.items) yield* this.#diff(item);
    }
  }

  /** Compare billing's per-store video counts for `months` with the state; read the content of stores that differ. */
  async *#videos(months: string[], enough: () => boolean = () => false, alsoStores?: Set<string>): AsyncGenerator<Found> {
    const state = this.#c.state;
    const stale = new Set<string>(alsoStores);
    /** Billing's counts our own cannot check, per store: kept once the store's content explains them. */
    const inDoubt = new Map<string, Map<string, number>>();
    for (const month of months) {
      const known = month === state.month ? 'cur' : month === previousMonth(state.month) ? 'prev' : undefined;
      const list = (c: string | undefined) => this.#c.client.reports.billingMonthly(month, { limit: PAGE, ...(c ? { cursor: c } : {}) }, this.#options);
      for await (const page of this.#walk(list)) {
        for (const row of page.items) {
          const index = state.storeIndex(row.partner_location_id);
          const entry = index === undefined ? undefined : state.videos(index);
          const have = entry === undefined || known === undefined ? 0 : entry[known];
          const store = row.partner_location_id;
          // Near a month's first moment the count depends on billing's time zone, and a month the
          // state does not count has nothing to compare with: only the content tells, and then
          // billing's count read with it, until that count moves.
          const zoneDependent = entry?.edges.some((edge) => edge === month || edge === nextMonth(month)) ?? false;
          if (zoneDependent || (known === undefined && row.videos_published > 0)) {
            if (this.#billed.unchanged(store, month, row.videos_published)) continue;
            stale.add(store);
            inDoubt.set(store, (inDoubt.get(store) ?? new Map<string, number>()).set(month, row.videos_published));
          } else if (row.videos_published > have || (row.videos_published < have && known !== undefined)) stale.add(store);
        }
      }
    }
    for (const id of stale) {
      const postedAt = yield* this.#content(id);
      const counts = inDoubt.get(id);
      if (counts) this.#billed.explained(id, counts, postedAt);
      if (enough()) return;
    }
  }

  /**
   * A store's videos: those whose id was not delivered before are new, wherever the list puts them;
   * a video listed twice counts once. A store an older version saved kept only how many it had
   * delivered: the first that many listed count as delivered, as that version read them, and
   * their ids are saved with the store's next record, so it is tracked by id from then on.
   * Returns when each listed video was posted (each video once).
   */
  async *#content(storeId: string): AsyncGenerator<Found, number[]> {
    const state = this.#c.state;
    const videos = [];
    const list = (c: string | undefined) => this.#c.client.content.list(storeId, { limit: PAGE, ...(c ? { cursor: c } : {}) }, this.#options);
    for await (const page of this.#walk(list)) videos.push(...page.items);
    const records: StateRecord[] = [];
    const store = state.ensureStore(storeId, records);
    const known = state.videos(store);
    const delivered = state.deliveredVideos(store);
    const listed = new Set<string>();
    /** Ids of a count-only store's first `known.seen` videos, not saved yet. */
    const adopted: string[] = [];
    const tally = { seen: 0, cur: 0, prev: 0, edges: [] as string[] };
    const postedAt: number[] = [];
    const previous = previousMonth(state.month);
    for (const video of videos) {
      if (listed.has(video.video_id)) continue;
      listed.add(video.video_id);
      tally.seen++;
      const posted = Date.parse(video.posted_at);
      postedAt.push(posted);
      const month = monthOf(posted);
      if (month === state.month) tally.cur++;
      else if (month === previous) tally.prev++;
      const edge = edgeOf(posted);
      if (edge !== undefined && edge >= previous && !tally.edges.includes(edge)) tally.edges = [...tally.edges, edge];
      if (delivered === undefined ? listed.size <= known.seen : delivered.has(video.video_id)) {
        if (delivered === undefined) adopted.push(video.video_id);
        continue;
      }
      state.setVideos(store, { ...tally }, records, [...adopted.splice(0), video.video_id]);
      yield {
        event: {
          id: eventId(`v|${video.video_id}`),
          type: 'video.published',
          created_at: new Date(this.#c.service.now()).toISOString(),
          partner_location_id: storeId,
          data: video,
        },
        records: records.splice(0),
      };
    }
    // Nothing new, but the month's counts may need correcting (so billing stops pointing here).
    if (adopted.length > 0 || tally.seen !== known.seen || tally.cur !== known.cur || tally.prev !== known.prev || tally.edges.join() !== known.edges.join()) {
      state.setVideos(store, tally, records, adopted);
    }
    if (records.length > 0) yield { records };
    return postedAt;
  }

  /** The event (if any) that `item` makes against the state, with its records. */
  *#diff(item: Reservation): Generator<Found> {
    const state = this.#c.state;
    const records: StateRecord[] = [];
    const store = state.ensureStore(item.partner_location_id, records);
    const before = state.booking(item.reservation_id);
    const after = entryOf(item, store);
    const packed = packBooking(after);
    if (before && packBooking(before) === packed) return;
    state.record(['b', item.reservation_id, packed], records);
    const base = { created_at: new Date(this.#c.service.now()).toISOString(), partner_location_id: item.partner_location_id, data: item };
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
    const id = eventId(`u|${item.reservation_id}|${before.status}>${after.status}|${before.ack ?? ''}>${after.ack ?? ''}`);
    yield { event: { ...base, id, type: 'reservation.updated', previous }, records };
  }

  #countsMatch(counts: SummaryCounts): boolean {
    const s = this.#c.state.counts;
    return s.pending === counts.pending && s.confirmed === counts.confirmed && s.completed === counts.completed && s.no_show === counts.no_show && s.unacknowledged === counts.unacknowledged;
  }

  async #call<T>(send: () => PromiseLike<T>): Promise<T> {
    await this.#c.budget.take(this.#c.signal);
    this.#c.onCall();
    return send();
  }

  /**
   * Pages of a list, each call inside the watcher's budget. The list's own page walk, so a page
   * that leads back to one already read ends the walk with its `UnexpectedResponseError`. With
   * the client's `prefetchPages` a page is requested as the one before it is handed over, so its
   * slot of the budget is taken one page late: never more than one call ahead of the share.
   */
  async *#walk<T>(list: (cursor: string | undefined) => PagePromise<T>, start?: string): AsyncGenerator<Page<T>> {
    const pages = list(start).pages();
    try {
      for (;;) {
        const next = await this.#call(() => pages.next());
        if (next.done) return;
        this.#c.service.observe(next.value.response.headers);
        yield next.value;
        if (!next.value.hasNextPage()) return;
      }
    } finally {
      await pages.return();
    }
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

function monthsFrom(first: string, last: string): string[] {
  const months = [last];
  while (months.length < 120 && (months[0] as string) > first) months.unshift(previousMonth(months[0] as string));
  return months;
}
