/**
 * Finding changes: the scheduler of the finders (one per family, listed in families.ts:
 * bookings.ts, videos.ts, and stores.ts for a watcher started with `stores`), under
 * one call budget. Each pass opens with the summary (one call, and the service's time to decide
 * by), then is either a poll, where each finder looks only where the summary says its family
 * moved, or a full reconciliation, where each reads everything of its family. Each change becomes
 * an event with the state records that confirm it; records are applied to the state at once (so
 * one change is never found twice in a pass) and saved by the watcher only after the loop body has
 * finished with the event.
 *
 * A reconciliation runs when it is due (so one ends within `maxLag` of the last), early when a
 * finder asks for one (its saved list position was refused, or counts still differ from the
 * summary after a poll, at most every `maxLag / 10`), and when the service's history went back.
 *
 * "Now" is the service's time (`ServiceClock`), read from every response: the month billing is
 * read for, whether a visit is due, when a change was found and when a reconciliation is due are
 * all compared with the service's data.
 */
import type { PartnerClient, Summary } from '../index.js';
import { monthOf } from './calendar.js';
import { BookingMonths } from './month-bounds.js';
import type { CallBudget } from './call-budget.js';
import { FAMILIES } from './families.js';
import { Lists, type Finder, type Found } from './finder.js';
import { clockWentBack, REWOUND } from './history.js';
import type { ServiceClock } from './service-clock.js';
import type { WatchState } from './state.js';
import { StoreSet } from './store-set.js';
import type { StoreFinderOptions } from './stores.js';

export type { Found } from './finder.js';

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
  /** Shortest time between two billing scans of a poll (ms). */
  videoScanSpacing: number;
  /** Longest time a change may stay undelivered (ms). */
  maxLag: number;
  /** Read store records too (the store family), each again at least every `refreshMs`. */
  stores?: { refreshMs: number; budgetShare: number } & Pick<StoreFinderOptions, 'onUnchanged'>;
}

/** Why a pass is a poll or a full reconciliation (`watcher.stats.lastPass`). */
export type PassReason = 'first sync' | 'due' | 'position refused' | 'mismatch' | 'history reset' | 'not due';

export interface Pass {
  kind: 'poll' | 'reconciliation';
  reason: PassReason;
}

export class Detector {
  readonly #context: DetectorContext;
  /** Every finder, in the order a pass runs them (families.ts). */
  readonly #finders: Finder[];
  /** The stores whose bookings or videos moved since the store family read them. */
  readonly #touched: StoreSet;
  /** Why the service's history went back under the checkpoint, once seen: the next pass starts again from nothing. */
  rewound: string | undefined;

  constructor(context: DetectorContext) {
    this.#context = context;
    this.#touched = new StoreSet(context.state);
    const lists = new Lists(context.budget, context.service, context.signal, context.onCall);
    const finderContext = {
      client: context.client,
      state: context.state,
      service: context.service,
      local: context.local,
      lists,
      historyWentBack: (reason: string) => {
        this.rewound ??= reason;
        context.service.historyWentBack();
      },
    };
    const settings = { scanSpacing: context.videoScanSpacing, stores: context.stores, touched: this.#touched };
    this.#finders = FAMILIES.flatMap((family) => family.finder?.(finderContext, settings) ?? []);
    this.#lists = lists;
  }

  readonly #lists: Lists;

  /**
   * The account's summary; its response also sets the service's time for the pass that follows,
   * read again while no answers agree on that time yet (`ServiceClock.needsConfirming`).
   */
  async summary(): Promise<Summary> {
    let data: Summary;
    let reads = 0;
    do {
      const answer = await this.#lists.call(() =>
        this.#context.client.reports.summary(this.#lists.options).withResponse(),
      );
      data = answer.data;
      this.#context.service.observe(answer.response.headers, data.generated_at);
    } while (this.#context.service.needsConfirming(++reads));
    const { state, service } = this.#context;
    if (clockWentBack(state, service, state.provisional)) this.rewound ??= REWOUND.clock;
    if (service.confirmed) state.provisional = false;
    return data;
  }

  /**
   * Poll or reconcile, and why. `reconciliationTakes` is how long the last one took (ms), so the
   * next starts early enough to end within `maxLag`.
   */
  choose(reconciliationTakes: number): Pass {
    const { state, maxLag } = this.#context;
    const now = this.#serviceNow();
    if (this.rewound !== undefined) return { kind: 'reconciliation', reason: 'history reset' };
    if (state.fullAt === null) return { kind: 'reconciliation', reason: 'first sync' };
    if (now >= state.fullAt + maxLag - reconciliationTakes) return { kind: 'reconciliation', reason: 'due' };
    const wanted = this.#finders.map((finder) => finder.wants);
    if (wanted.includes('position refused')) return { kind: 'reconciliation', reason: 'position refused' };
    if (wanted.includes('mismatch') && now - state.fullAt >= maxLag / 10)
      return { kind: 'reconciliation', reason: 'mismatch' };
    return { kind: 'poll', reason: 'not due' };
  }

  /** How long until a reconciliation is due (ms; 0 before the first). */
  untilDue(reconciliationTakes: number): number {
    const { state, maxLag } = this.#context;
    return state.fullAt === null ? 0 : state.fullAt + maxLag - reconciliationTakes - this.#serviceNow();
  }

  run(pass: Pass, summary: Summary): AsyncGenerator<Found> {
    return pass.kind === 'reconciliation' ? this.reconcile(summary) : this.poll(summary);
  }

  /** Each finder looks where the summary says its family moved. */
  async *poll(summary: Summary): AsyncGenerator<Found> {
    yield* this.#newMonth();
    for (const finder of this.#finders) {
      yield* this.#noting(finder.poll(summary));
      // Nothing later in this pass is worth reading against a list position that is refused or a history gone back.
      if (this.rewound !== undefined || finder.wants === 'position refused') return;
    }
  }

  /** Every finder reads everything of its family (every month of videos on a first sync). */
  async *reconcile(summary?: Summary): AsyncGenerator<Found> {
    const state = this.#context.state;
    // Remembered as seen (the `f` and `r` records): a time the service did not confirm is the earliest
    // its answers told, and the first confirmed time corrects it.
    const startedAt = this.#context.service.seenAt();
    const provisional = !this.#context.service.confirmed;
    if (this.rewound) {
      const forget: Found = { records: [] };
      state.record(['r', startedAt], forget.records);
      // The stores are numbered again from nothing: a store set of the old numbers means nothing now.
      this.#touched.clear();
      if (provisional) state.record(['p'], forget.records);
      for (const finder of this.#finders) finder.forget?.();
      this.rewound = undefined;
      yield forget;
    }
    const firstSync = state.fullAt === null;
    yield* this.#newMonth();
    const pass = {
      firstSync,
      earliestMonth: state.month,
      storesWithCompletedVisits: new StoreSet(state),
      bookingMonths: new BookingMonths(),
      storesBilled: new StoreSet(state),
      ...(summary ? { summary } : {}),
    };
    for (const finder of this.#finders) yield* this.#noting(finder.reconcile(pass));
    const done: Found = { records: [] };
    state.record(['f', startedAt], done.records);
    if (provisional && !state.provisional) state.record(['p'], done.records);
    yield done;
  }

  /** What a finder found, the stores of its events noted for the store family (a store's own events aside). */
  async *#noting(found: AsyncGenerator<Found>): AsyncGenerator<Found> {
    for await (const item of found) {
      if (this.#context.stores && item.event && item.event.type !== 'location.updated')
        this.#touched.add(item.event.partner_location_id);
      yield item;
    }
  }

  async *#newMonth(): AsyncGenerator<Found> {
    const month = monthOf(this.#serviceNow());
    if (month === this.#context.state.month) return;
    for (const finder of this.#finders) finder.newMonth?.(month);
    const found: Found = { records: [] };
    this.#context.state.record(['m', month], found.records);
    yield found;
  }

  /** The service's time, where every decision against the service's data reads it. */
  #serviceNow(): number {
    return this.#context.service.now();
  }
}
