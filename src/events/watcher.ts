import {
  CheckpointLockedError,
  ConfigurationError,
  isTransient,
  type ClientClock,
  type PartnerClient,
} from '../index.js';
import { bookingFamily } from './bookings.js';
import { CallBudget } from './call-budget.js';
import type { Checkpoint, LockStatus } from './checkpoint.js';
import { standbyCheck } from './standby-check.js';
import { Detector, type Pass } from './detector.js';
import { intervalsOf } from './intervals.js';
import { Pacing } from './pacing.js';
import { ServiceClock } from './service-clock.js';
import { WatchState } from './state.js';
import type {
  PartnerEvent,
  PartnerEventWithStores,
  StoreWatchOptions,
  WatchOptions,
  WatchOptionsWithStores,
  WatchStats,
} from './types.js';
import { SHARED_BUDGET, type SharedBudget } from './shared-budget.js';
import { passEnded } from './pass-end.js';

/** Checkpoints a watcher in this process is using (catches two watchers on one custom checkpoint). */
const inUse = new WeakSet<Checkpoint>();

interface Settings {
  checkpoint: Checkpoint;
  startFrom: 'beginning' | 'now';
  budgetShare: number;
  maxLag: number;
  minInterval: number;
  maxInterval: number;
  standby: boolean;
  previousKeys: readonly string[];
  /** Store records as a family (`stores`): how often each is read again (ms), and who is told of a read that found nothing new. */
  stores: StoreFamily | undefined;
  budget: SharedBudget | undefined;
}

/**
 * A running stream of events: iterate it once with `for await`. The checkpoint moves past an event
 * when your loop body has finished with it (when the loop asks for the next one); an event whose
 * body threw, or that you left with `break`, comes again next time. Stops with the `signal`,
 * `break`, `watcher.stop()` or `client.close()` (the client's `closeSignal`).
 *
 * @example
 * ```ts
 * const watcher = watchEvents(client, { checkpoint: fileCheckpoint('./crp-events.json'), signal });
 * for await (const event of watcher) await handle(event);
 * console.log(watcher.stats.calls);
 * ```
 */
export class Watcher<E extends PartnerEventWithStores = PartnerEvent> implements AsyncIterable<E> {
  /** What the watcher has done so far: calls, events, polls, reconciliations. */
  readonly stats: WatchStats = {
    calls: 0,
    events: 0,
    polls: 0,
    reconciliations: 0,
    budgetWaitMs: 0,
    intervalMs: 0,
    errors: 0,
    tracked: { reservations: 0, stores: 0 },
    lastReconciledAt: null,
    lock: 'none',
    lockOutages: 0,
    historyResets: 0,
    lastHistoryReset: null,
    serviceTimeOutliers: 0,
    lastPass: null,
  };
  readonly #client: PartnerClient;
  readonly #clock: ClientClock;
  readonly #settings: Settings;
  readonly #stop = new AbortController();
  #iterated = false;

  /** @internal Made by `watchEvents()`. */
  constructor(client: PartnerClient, options: WatchOptions | WatchOptionsWithStores) {
    this.#client = client;
    // The client's own clock, so simulated time in tests paces the watcher and the client's budget alike.
    this.#clock = client.clock;
    this.#settings = settingsOf(options);
    const signal = options.signal;
    if (signal?.aborted) this.#stop.abort(signal.reason);
    else signal?.addEventListener('abort', () => this.#stop.abort(signal.reason), { once: true });
  }

  /** Stop the watcher: the loop ends (without an error) after the call in progress. */
  stop(): void {
    this.#stop.abort();
  }

  /** The events, in the order found. One iteration per watcher. */
  [Symbol.asyncIterator](): AsyncIterator<E> {
    if (this.#iterated) throw new TypeError('A watcher can be iterated once. Call watchEvents() again for a new loop.');
    this.#iterated = true;
    // A location.updated comes only from a watcher started with `stores`, whose E includes it.
    return this.#run() as AsyncIterator<E>;
  }

  async *#run(): AsyncGenerator<PartnerEventWithStores, void, undefined> {
    const { checkpoint } = this.#settings;
    const signal = this.#stop.signal;
    // A standby waits in lock() (required with standby) for the watcher here that holds it.
    if (inUse.has(checkpoint) && !this.#settings.standby) {
      throw new CheckpointLockedError(
        'This checkpoint is in use by another watcher in this process. Stop that watcher first, or give each watcher its own checkpoint.',
      );
    }
    inUse.add(checkpoint);
    // Listened to only while the loop runs: a watcher never iterated holds nothing on the client.
    const closed = this.#client.closeSignal;
    const onClose = () => this.stop();
    if (closed.aborted) onClose();
    else closed.addEventListener('abort', onClose, { once: true });
    let release: (() => Promise<void>) | undefined;
    try {
      release = await this.#lock(signal);
      if (signal.aborted) return; // stopped while standing by
      const state = await WatchState.load(
        checkpoint,
        { key: this.#client.keyFingerprint, service: this.#client.baseUrl },
        this.#settings.previousKeys,
      );
      yield* this.#passes(state, signal);
    } finally {
      inUse.delete(checkpoint);
      closed.removeEventListener('abort', onClose);
      await release?.();
    }
  }

  /** Pass after pass, each followed by its wait, until stopped. */
  async *#passes(state: WatchState, signal: AbortSignal): AsyncGenerator<PartnerEventWithStores, void, undefined> {
    const { maxLag, minInterval, maxInterval } = this.#settings;
    const silentFirstSync = this.#settings.startFrom === 'now' && state.blank;
    const resetsBefore = state.resets;
    const budget =
      (this.#settings.budget as CallBudget | undefined) ??
      new CallBudget(this.#clock, this.#settings.budgetShare, () => this.#client.rateLimit);
    // The state's times (the last full pass, the month) are the service's: so is every comparison with them.
    const service = new ServiceClock(this.#clock, {
      logger: this.#client.logger,
      onOutlier: () => this.stats.serviceTimeOutliers++,
    });
    // Intervals on the monotonic reading: on the wall clock, a clock set back 2 days would hold
    // every reconciliation for 2 days.
    const clock = this.#clock;
    const elapsed = () => clock.monotonic();
    const detector = new Detector({
      client: this.#client,
      budget,
      state,
      service,
      local: elapsed,
      signal,
      onCall: () => this.stats.calls++,
      videoScanSpacing: Math.min(60_000, maxInterval),
      maxLag,
      ...(this.#settings.stores
        ? { stores: { ...this.#settings.stores, budgetShare: this.#settings.budgetShare } }
        : {}),
    });
    const pacing = new Pacing(minInterval, maxInterval);
    // How long a reconciliation takes, so the next starts early enough to end within maxLag.
    let reconciliationTakes = maxLag / 10;
    while (!signal.aborted) {
      const startedLocal = elapsed();
      // Once the service's history went back, what exists now is new to the loop: never silent.
      const silent = state.fullAt === null && silentFirstSync && state.resets === 0;
      const outcome = { found: 0, failed: false };
      try {
        const pass = yield* this.#pass(detector, state, { silent, reconciliationTakes }, outcome, signal);
        if (pass.kind === 'reconciliation') {
          reconciliationTakes = elapsed() - startedLocal;
          this.stats.lastReconciledAt = new Date(service.now()).toISOString();
        }
      } catch (error) {
        if (signal.aborted) break;
        if (!isTransient(error)) throw error;
        this.stats.errors++;
        outcome.failed = true;
      } finally {
        this.stats.budgetWaitMs = budget.waitedMs;
        this.stats.tracked = { reservations: state.family(bookingFamily).size, stores: state.stores.length };
        this.stats.historyResets = state.resets - resetsBefore;
      }
      const wait = pacing.after(outcome.found, outcome.failed, detector.untilDue(reconciliationTakes));
      this.stats.intervalMs = wait;
      if (wait > 0 && !(await this.#sleep(wait, signal))) break;
    }
  }

  /**
   * One pass: the summary, the choice between a poll and a reconciliation, and each event found,
   * delivered under a confirmed lease and saved once the loop body is done with it.
   */
  async *#pass(
    detector: Detector,
    state: WatchState,
    { silent, reconciliationTakes }: { silent: boolean; reconciliationTakes: number },
    outcome: { found: number },
    signal: AbortSignal,
  ): AsyncGenerator<PartnerEventWithStores, Pass, undefined> {
    const { checkpoint } = this.#settings;
    // Once a pass too, so a watcher that lost its lease stops even when nothing changes.
    if (checkpoint.confirm) await checkpoint.confirm(signal);
    const summary = await detector.summary();
    const pass = detector.choose(reconciliationTakes);
    this.stats.lastPass = { ...pass };
    if (detector.rewound) this.stats.lastHistoryReset = detector.rewound;
    for await (const item of detector.run(pass, summary)) {
      if (item.event && !silent) {
        // A lease can be lost (paused past it, cut off from its store): never deliver without it.
        if (checkpoint.confirm) await checkpoint.confirm(signal);
        this.stats.events++;
        outcome.found++;
        yield item.event;
      }
      if (!silent) await state.commit(checkpoint, item.records);
    }
    this.stats.polls++;
    if (pass.kind === 'reconciliation') this.stats.reconciliations++;
    await state.compact(checkpoint, silent);
    await passEnded(checkpoint);
    return pass;
  }

  /** Wait `ms`; false when stopped meanwhile. */
  async #sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#clock.sleep(ms, signal);
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      throw error;
    }
  }

  /** The checkpoint's lock (waiting for it as a standby); undefined when stopped while waiting. */
  async #lock(signal: AbortSignal): Promise<(() => Promise<void>) | undefined> {
    const { checkpoint, standby } = this.#settings;
    if (!checkpoint.lock) return undefined;
    const onStatus = (status: LockStatus) => {
      if (status === 'unreachable' && this.stats.lock !== 'unreachable') this.stats.lockOutages++;
      this.stats.lock = status;
    };
    if (standby) this.stats.lock = 'standby';
    try {
      const check = standbyCheck(
        { key: this.#client.keyFingerprint, service: this.#client.baseUrl },
        this.#settings.previousKeys,
      );
      const release = await checkpoint.lock({ wait: standby, signal, onStatus, check });
      this.stats.lock = 'held';
      return release;
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    }
  }
}

function settingsOf(options: WatchOptions | WatchOptionsWithStores): Settings {
  const o = (options ?? {}) as Partial<WatchOptionsWithStores>;
  const known = new Set([
    'checkpoint',
    'signal',
    'startFrom',
    'budgetShare',
    'maxLag',
    'minInterval',
    'maxInterval',
    'standby',
    'previousKeys',
    'stores',
  ]);
  for (const key of Object.keys(o)) {
    if (!known.has(key))
      throw new ConfigurationError(
        `watchEvents() has no option ${JSON.stringify(key)}. Options: ${[...known].join(', ')}.`,
      );
  }
  const checkpoint = o.checkpoint;
  if (!checkpoint || typeof checkpoint.load !== 'function' || typeof checkpoint.save !== 'function') {
    throw new ConfigurationError(
      "watchEvents() needs a checkpoint: fileCheckpoint('./crp-events.json'), memoryCheckpoint(), or your own { load, save }.",
    );
  }
  if (o.standby !== undefined && typeof o.standby !== 'boolean') {
    throw new ConfigurationError(`The option standby must be true or false; got ${JSON.stringify(o.standby)}.`);
  }
  if (o.standby && typeof checkpoint.lock !== 'function') {
    throw new ConfigurationError(
      "The option standby waits for the checkpoint's lock, and this checkpoint has none: use " +
        'redisCheckpoint() (@crp/partner-sdk/redis), fileCheckpoint() or a checkpoint with lock().',
    );
  }
  if (o.startFrom !== undefined && o.startFrom !== 'beginning' && o.startFrom !== 'now') {
    throw new ConfigurationError(
      `The option startFrom must be 'beginning' or 'now'; got ${JSON.stringify(o.startFrom)}.`,
    );
  }
  const previousKeys = o.previousKeys ?? [];
  if (!Array.isArray(previousKeys) || !previousKeys.every((k) => typeof k === 'string' && /^[0-9a-f]{16}$/.test(k))) {
    throw new ConfigurationError(
      `The option previousKeys lists key fingerprints (16 hex digits, client.keyFingerprint of a client with ` +
        `that key; never the key itself); got ` +
        `${Array.isArray(previousKeys) ? `${previousKeys.length} item(s), not all fingerprints` : typeof previousKeys}.`,
    );
  }
  const budgetShare = o.budgetShare ?? 0.5;
  if (!(typeof budgetShare === 'number' && budgetShare > 0 && budgetShare <= 1)) {
    throw new ConfigurationError(
      `The option budgetShare must be a number above 0 and at most 1 (a share of the key's budget); got ${String(budgetShare)}.`,
    );
  }
  const { maxLag, minInterval, maxInterval } = intervalsOf(
    o as Pick<WatchOptions, 'maxLag' | 'minInterval' | 'maxInterval'>,
  );
  const shared = (o as { [SHARED_BUDGET]?: SharedBudget })[SHARED_BUDGET];
  return {
    checkpoint,
    startFrom: o.startFrom ?? 'beginning',
    budgetShare,
    maxLag,
    minInterval,
    maxInterval,
    standby: o.standby ?? false,
    previousKeys,
    stores: storesOf(o.stores),
    budget: typeof shared?.take === 'function' ? shared : undefined,
  };
}

type StoreFamily = { refreshMs: number; onUnchanged?: StoreWatchOptions['onUnchanged'] | undefined };

function storesOf(stores: WatchOptionsWithStores['stores'] | false | undefined): StoreFamily | undefined {
  if (stores === undefined || stores === false) return undefined;
  const given = stores === true ? {} : (stores as { refreshMs?: unknown; onUnchanged?: unknown } | null);
  const refreshMs = given?.refreshMs;
  const onUnchanged = given?.onUnchanged;
  const valid = stores === true || (typeof stores === 'object' && stores !== null);
  if (
    !valid ||
    (refreshMs !== undefined && !(typeof refreshMs === 'number' && Number.isFinite(refreshMs) && refreshMs >= 100)) ||
    (onUnchanged !== undefined && typeof onUnchanged !== 'function')
  ) {
    throw new ConfigurationError(
      'The option stores is true, false or { refreshMs, onUnchanged } (how often each store record is read again, ' +
        `in milliseconds, at least 100; a function told of each read that found a store unchanged); got ${JSON.stringify(stores)}.`,
    );
  }
  return {
    refreshMs: (refreshMs as number | undefined) ?? 21_600_000,
    ...(onUnchanged ? { onUnchanged: onUnchanged as StoreFamily['onUnchanged'] } : {}),
  };
}
