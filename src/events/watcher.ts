import { CheckpointLockedError, ConfigurationError, isTransient, type ClientClock, type PartnerClient } from '../index.js';
import { CallBudget } from './call-budget.js';
import type { Checkpoint, LockStatus } from './checkpoint.js';
import { Detector } from './detector.js';
import { intervalsOf } from './intervals.js';
import { ServiceClock } from './service-clock.js';
import { WatchState } from './state.js';
import type { PartnerEvent, WatchOptions, WatchStats } from './types.js';

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
export class Watcher implements AsyncIterable<PartnerEvent> {
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
  };
  readonly #client: PartnerClient;
  readonly #clock: ClientClock;
  readonly #settings: Settings;
  readonly #stop = new AbortController();
  #iterated = false;

  /** @internal Made by `watchEvents()`. */
  constructor(client: PartnerClient, options: WatchOptions) {
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
  [Symbol.asyncIterator](): AsyncIterator<PartnerEvent> {
    if (this.#iterated) throw new TypeError('A watcher can be iterated once. Call watchEvents() again for a new loop.');
    this.#iterated = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<PartnerEvent, void, undefined> {
    const { checkpoint, maxLag, minInterval, maxInterval } = this.#settings;
    const signal = this.#stop.signal;
    // A standby waits in lock() (required with standby) for the watcher here that holds it.
    if (inUse.has(checkpoint) && !this.#settings.standby) {
      throw new CheckpointLockedError('This checkpoint is in use by another watcher in this process. Stop that watcher first, or give each watcher its own checkpoint.');
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
      const state = await WatchState.load(checkpoint, { key: this.#client.keyFingerprint, service: this.#client.baseUrl }, this.#settings.previousKeys);
      const silentFirstSync = this.#settings.startFrom === 'now' && state.blank;
      const resetsBefore = state.resets;
      const budget = new CallBudget(this.#clock, this.#settings.budgetShare, () => this.#client.rateLimit);
      // The state's times (the last full pass, the month) are the service's: so is every comparison with them.
      const service = new ServiceClock(this.#clock);
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
      });
      let interval = minInterval;
      // How long a full pass takes, so the next starts early enough to end within maxLag.
      let fullDuration = maxLag / 10;
      while (!signal.aborted) {
        const startedLocal = elapsed();
        // Once the service's history went back, what exists now is new to the loop: never silent.
        const silent = state.fullAt === null && silentFirstSync && state.resets === 0;
        let found = 0;
        let failed = false;
        try {
          // Once a poll too, so a watcher that lost its lease stops even when nothing changes.
          if (checkpoint.confirm) await checkpoint.confirm(signal);
          // Every poll opens with the summary: one call, and the service's time to decide by.
          const summary = await detector.summary();
          const started = service.now();
          const due = state.fullAt === null || started >= state.fullAt + maxLag - fullDuration;
          const early = detector.needFull || (detector.mismatch && state.fullAt !== null && started - state.fullAt >= maxLag / 10);
          if (detector.rewound) this.stats.lastHistoryReset = detector.rewound;
          const full = due || early || detector.rewound !== undefined;
          for await (const item of full ? detector.full() : detector.quick(summary)) {
            if (item.event && !silent) {
              // A lease can be lost (paused past it, cut off from its store): never deliver without it.
              if (checkpoint.confirm) await checkpoint.confirm(signal);
              this.stats.events++;
              found++;
              yield item.event;
            }
            if (!silent) await state.commit(checkpoint, item.records);
          }
          this.stats.polls++;
          if (full) {
            this.stats.reconciliations++;
            fullDuration = elapsed() - startedLocal;
            this.stats.lastReconciledAt = new Date(service.now()).toISOString();
          }
          await state.compact(checkpoint, silent);
        } catch (error) {
          if (signal.aborted) break;
          if (!isTransient(error)) throw error;
          this.stats.errors++;
          failed = true;
        } finally {
          this.stats.budgetWaitMs = budget.waitedMs;
          this.stats.tracked = { reservations: state.bookingCount, stores: state.stores.length };
          this.stats.historyResets = state.resets - resetsBefore;
        }
        // While changes flow the wait stays short; each poll that finds nothing doubles it.
        if (found > 0) interval = minInterval;
        const untilFull = state.fullAt === null ? 0 : state.fullAt + maxLag - fullDuration - service.now();
        // A failed poll waits its interval even when a reconciliation is due: a failure that
        // persists (a page that leads back to one already read) must not be retried at once.
        const wait = failed ? interval : Math.max(0, Math.min(interval, untilFull));
        if (found === 0) interval = Math.min(interval * 2, maxInterval);
        this.stats.intervalMs = wait;
        if (wait > 0) {
          try {
            await this.#clock.sleep(wait, signal);
          } catch (error) {
            if (signal.aborted) break;
            throw error;
          }
        }
      }
    } finally {
      inUse.delete(checkpoint);
      closed.removeEventListener('abort', onClose);
      await release?.();
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
      const release = await checkpoint.lock({ wait: standby, signal, onStatus });
      this.stats.lock = 'held';
      return release;
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    }
  }
}

function settingsOf(options: WatchOptions): Settings {
  const o = (options ?? {}) as Partial<WatchOptions>;
  const known = new Set(['checkpoint', 'signal', 'startFrom', 'budgetShare', 'maxLag', 'minInterval', 'maxInterval', 'standby', 'previousKeys']);
  for (const key of Object.keys(o)) {
    if (!known.has(key)) throw new ConfigurationError(`watchEvents() has no option ${JSON.stringify(key)}. Options: ${[...known].join(', ')}.`);
  }
  const checkpoint = o.checkpoint;
  if (!checkpoint || typeof checkpoint.load !== 'function' || typeof checkpoint.save !== 'function') {
    throw new ConfigurationError("watchEvents() needs a checkpoint: fileCheckpoint('./crp-events.json'), memoryCheckpoint(), or your own { load, save }.");
  }
  if (o.standby !== undefined && typeof o.standby !== 'boolean') {
    throw new ConfigurationError(`The option standby must be true or false; got ${JSON.stringify(o.standby)}.`);
  }
  if (o.standby && typeof checkpoint.lock !== 'function') {
    throw new ConfigurationError('The option standby waits for the checkpoint\'s lock, and this checkpoint has none: use redisCheckpoint() (@crp/partner-sdk/redis), fileCheckpoint() or a checkpoint with lock().');
  }
  if (o.startFrom !== undefined && o.startFrom !== 'beginning' && o.startFrom !== 'now') {
    throw new ConfigurationError(`The option startFrom must be 'beginning' or 'now'; got ${JSON.stringify(o.startFrom)}.`);
  }
  const previousKeys = o.previousKeys ?? [];
  if (!Array.isArray(previousKeys) || !previousKeys.every((k) => typeof k === 'string' && /^[0-9a-f]{16}$/.test(k))) {
    throw new ConfigurationError(
      `The option previousKeys lists key fingerprints (16 hex digits, client.keyFingerprint of a client with that key; never the key itself); got ${Array.isArray(previousKeys) ? `${previousKeys.length} item(s), not all fingerprints` : typeof previousKeys}.`,
    );
  }
  const budgetShare = o.budgetShare ?? 0.5;
  if (!(typeof budgetShare === 'number' && budgetShare > 0 && budgetShare <= 1)) {
    throw new ConfigurationError(`The option budgetShare must be a number above 0 and at most 1 (a share of the key's budget); got ${String(budgetShare)}.`);
  }
  const { maxLag, minInterval, maxInterval } = intervalsOf(o);
  return { checkpoint, startFrom: o.startFrom ?? 'beginning', budgetShare, maxLag, minInterval, maxInterval, standby: o.standby ?? false, previousKeys };
}
