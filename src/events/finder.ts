/**
 * What every finder shares: the context it reads the service through, what it yields, and the
 * page walk every list goes through inside the watcher's budget. A finder is one family of
 * changes (bookings.ts, videos.ts, stores.ts): its poll, which looks only where the summary says the family
 * moved, its full reconciliation, and its record codec. The detector schedules them.
 */
import type { Page, PagePromise, PartnerClient, RequestOptions, Summary } from '../index.js';
import type { CallBudget } from './call-budget.js';
import type { StateRecord } from './records.js';
import type { ServiceClock } from './service-clock.js';
import type { StoreFinderOptions } from './stores.js';
import type { WatchState } from './state.js';
import type { PartnerEventWithStores } from './types.js';
import type { BookingMonths } from './month-bounds.js';
import type { StoreSet } from './store-set.js';

/** An event to deliver (or none, for bookkeeping) and the records that confirm it. */
export interface Found {
  event?: PartnerEventWithStores;
  records: StateRecord[];
}

/** The most items a list gives per page: every list is read in pages this size. */
export const PAGE = 200;

export interface FinderContext {
  client: PartnerClient;
  state: WatchState;
  /** The service's time: every comparison with the service's data. */
  service: ServiceClock;
  /** The client's monotonic reading: only to measure intervals. */
  local: () => number;
  lists: Lists;
  /** A sign that the service's history went back under the checkpoint (history.ts's `REWOUND`). */
  historyWentBack(reason: string): void;
}

/** What one full reconciliation learns in one family and another needs (filled in the detector's order). */
export interface Reconciliation {
  /** No reconciliation completed before: every month since the earliest booking is read. */
  firstSync: boolean;
  /** The month of the oldest booking listed (videos follow visits, so none is older). */
  earliestMonth: string;
  /** Stores with a completed visit: they may have videos of months billing does not list them for. */
  storesWithCompletedVisits: StoreSet;
  /** The months the bookings listed reach: billing's history is read no further. */
  bookingMonths: BookingMonths;
  /** Every store billing listed in the pass (it lists each store enrolled, zeros included). */
  storesBilled: StoreSet;
  /** The summary the pass opened with. */
  summary?: Summary;
}

/** Why a finder asks for a full reconciliation before it is due. */
export type ReconciliationWanted = 'mismatch' | 'position refused';

/** The watcher's settings a family's finder is made with (`Family.finder`). */
export interface FinderSettings {
  /** Shortest time between two billing scans of a poll (ms). */
  scanSpacing: number;
  /** Read store records too (the store family): its finder's options but those the detector fills. */
  stores?: Omit<StoreFinderOptions, 'scanSpacing' | 'touched'> | undefined;
  /** Stores whose bookings or videos moved since the store family read them (filled by the detector). */
  touched: StoreSet;
}

/** One family of changes. */
export interface Finder {
  /** Look where the summary says this family moved; cheap, usually nothing. */
  poll(summary: Summary): AsyncGenerator<Found>;
  /** Read everything of the family and compare it with the state. */
  reconcile(pass: Reconciliation): AsyncGenerator<Found>;
  /** After a poll: what only a full reconciliation can settle, if anything. */
  readonly wants: ReconciliationWanted | undefined;
  /** A new billing month began (UTC). */
  newMonth?(month: string): void;
  /** The state was forgotten (the service's history went back). */
  forget?(): void;
}

/** Calls inside the watcher's budget, and the page walk of every list. */
export class Lists {
  readonly #budget: CallBudget;
  readonly #service: ServiceClock;
  readonly #onCall: () => void;
  readonly options: RequestOptions;

  constructor(budget: CallBudget, service: ServiceClock, signal: AbortSignal, onCall: () => void) {
    this.#budget = budget;
    this.#service = service;
    this.#onCall = onCall;
    this.options = { signal };
  }

  /** One call, once the budget has a slot for it. */
  async call<T>(send: () => PromiseLike<T>): Promise<T> {
    await this.#budget.take(this.options.signal as AbortSignal);
    this.#onCall();
    return send();
  }

  /**
   * Pages of a list, each call inside the watcher's budget. The list's own page walk, so a page
   * that leads back to one already read ends the walk with its `UnexpectedResponseError`. With
   * the client's `prefetchPages` a page is requested as the one before it is handed over, so its
   * slot of the budget is taken one page late: never more than one call ahead of the share.
   */
  async *walk<T>(list: (cursor: string | undefined) => PagePromise<T>, start?: string): AsyncGenerator<Page<T>> {
    const pages = list(start).pages();
    try {
      for (;;) {
        const next = await this.call(() => pages.next());
        if (next.done) return;
        this.#service.observe(next.value.response.headers);
        yield next.value;
        if (!next.value.hasNextPage()) return;
      }
    } finally {
      await pages.return();
    }
  }
}

/** `{ limit: PAGE }` and the cursor, when there is one. */
export const page = (cursor: string | undefined) => ({ limit: PAGE, ...(cursor ? { cursor } : {}) });
