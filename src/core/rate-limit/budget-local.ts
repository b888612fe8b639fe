/**
 * The reservoir rules for one process (LocalQueue, no Redis).
 *
 * The queue takes one unit from its reservoir when it registers a job, which happens a microtask
 * before our task starts. Setting the reservoir to an absolute figure computed here would
 * overwrite registrations made in between, so we never set it: we keep an *allowance* counted in
 * the same units as the queue's registrations since creation, and push only its changes
 * (`incrementReservoir(delta)`). The queue's reservoir is then always
 *
 *     reservoir = allowance - registrations (+ refunds of abandoned jobs)
 *
 * and a figure from the server becomes an allowance as `remaining + done`: with `done` requests
 * finished, every other registered request (running, or registered and about to start) is
 * subtracted from the server's Remaining, which is the safe reading of a response while other
 * requests are in flight.
 *
 * Rules, in order (see window.ts for how a response is matched to a window):
 * - before the first budget: one request at a time (maxConcurrent 1, reservoir unbounded);
 * - first budget, or a newer window the server started before our refill: allowance from Remaining;
 * - same window (or the window we refilled for): our own count is exact while only we use the key,
 *   so keep it, moved by the amount a changed limit adds or removes; lower it only when the
 *   server has counted more than even an optimistic reading explains (another client), and then
 *   to the pessimistic reading. A stale or reordered Remaining never raises it;
 * - older window (a late response): ignored;
 * - at the window's upper bound: refill to `limit + done`, i.e. the limit less what is in flight;
 * - 429 with Retry-After: nothing new is sent until then, then refill.
 */
import { Alarm } from './alarm.js';
import type { Budget, Counters, Observation, WaitForecast } from './budget.js';
import type { LocalQueue } from './local-queue.js';
import { type Bounds, boundsOf, classify, intersect } from './window.js';

/** The reservoir before any budget is known: one request at a time is the only limit. */
export const UNBOUNDED = 1_000_000_000;

export class LocalBudget implements Budget {
  private allowance = UNBOUNDED;
  private limit: number | undefined;
  private window: Bounds | undefined;
  /** The window's refill has happened: responses still matching it are late ones. */
  private refreshed = false;
  private lastRefreshAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private pausePending = false;
  private lastPauseEndAt = Number.NEGATIVE_INFINITY;
  private readonly alarm: Alarm;

  /** `queue` must have been created with `reservoir: UNBOUNDED, maxConcurrent: 1`. */
  constructor(
    private readonly queue: LocalQueue,
    private readonly counters: Counters,
    private readonly clock: () => number,
  ) {
    this.alarm = new Alarm(() => this.tick(), clock);
  }

  observe(o: Observation): void {
    if (o.retryAfterMs !== undefined) {
      this.pausedUntil = Math.max(this.pausedUntil, o.now + o.retryAfterMs);
      this.pausePending = true;
      // Nothing new starts: the allowance falls to what has already been sent.
      this.setAllowance(Math.min(this.allowance, this.counters.started));
    }
    const mayRaise = o.now >= this.pausedUntil;
    if (o.state) {
      const bounds = boundsOf(o.state.resetAt.getTime(), o.now, o.sentAt);
      let verdict = classify(this.window, bounds);
      // After a refill, a response matching the refilled window, or sent before the refill, is late.
      if (verdict === 'same' && (this.refreshed || o.sentAt < this.lastRefreshAt)) verdict = 'older';
      // Remaining read pessimistically (every request not finished is still to be counted) and
      // optimistically (all of ours already counted): the truth lies between.
      const pessimistic = o.state.remaining + this.counters.done + (o.selfInFlight ? 1 : 0);
      const optimistic = o.state.remaining + this.counters.started;
      if (verdict === 'first' || (verdict === 'newer' && !this.refreshed && mayRaise)) {
        // A window we have no count of our own for: trust the server, pessimistically.
        this.setAllowance(mayRaise ? pessimistic : Math.min(this.allowance, pessimistic));
        if (this.limit === undefined) this.leaveSerialMode();
      } else if (verdict === 'newer' || verdict === 'same') {
        // Our own count is exact while only we use the key. Lower it only when the server has
        // counted more than even the optimistic reading explains (another client, a lower limit).
        let raisedBy = o.state.limit - (this.limit ?? o.state.limit);
        if (!mayRaise) raisedBy = Math.min(raisedBy, 0);
        const own = this.allowance + raisedBy;
        this.setAllowance(own <= optimistic ? own : Math.min(own, pessimistic));
      }
      if (verdict === 'first' || verdict === 'newer') {
        this.window = bounds;
        this.refreshed = false;
        this.limit = o.state.limit;
      } else if (verdict === 'same' && this.window) {
        this.window = intersect(this.window, bounds);
        this.limit = o.state.limit;
      }
    }
    this.arm();
  }

  refund(): void {
    this.queue.incrementReservoir(1);
  }

  forecast(now: number, ahead: number): WaitForecast | undefined {
    if (this.pausePending && now < this.pausedUntil) {
      return { reason: 'retry-after', expectedMs: this.pausedUntil - now };
    }
    const inFlight = this.counters.started - this.counters.done;
    if (this.limit === undefined) return inFlight + ahead > 0 ? { reason: 'first-response' } : undefined;
    if (this.allowance - this.counters.started - ahead > 0) return undefined;
    const forecast: WaitForecast = { reason: 'budget' };
    if (this.window && !this.refreshed) forecast.expectedMs = Math.max(0, this.window.hi - now);
    return forecast;
  }

  explain(queuedAt: number): WaitForecast['reason'] | undefined {
    if (this.lastPauseEndAt >= queuedAt) return 'retry-after';
    if (this.lastRefreshAt >= queuedAt) return 'budget';
    return undefined;
  }

  hold(waiting: boolean): void {
    this.alarm.hold(waiting);
  }

  async close(): Promise<void> {
    this.alarm.clear();
  }

  private target(): number {
    const windowEnd = this.window && !this.refreshed ? this.window.hi : 0;
    return Math.max(windowEnd, this.pausePending ? this.pausedUntil : 0);
  }

  private arm(): void {
    const at = this.target();
    if (at > 0) this.alarm.set(at);
    else this.alarm.clear();
  }

  private tick(): void {
    const now = this.clock();
    const at = this.target();
    if (at === 0) return;
    if (now < at) {
      this.alarm.set(at);
      return;
    }
    if (this.pausePending) this.lastPauseEndAt = now;
    if (this.limit !== undefined) {
      // Everything registered and not finished may be counted in the new window: leave room for it.
      this.setAllowance(this.limit + this.counters.done);
      this.refreshed = true;
      this.lastRefreshAt = now;
    } else {
      // A pause ended before any budget was seen: back to probing one request at a time.
      this.setAllowance(this.counters.started + UNBOUNDED);
    }
    this.pausePending = false;
  }

  private setAllowance(next: number): void {
    const delta = next - this.allowance;
    this.allowance = next;
    if (delta !== 0) this.queue.incrementReservoir(delta);
  }

  private leaveSerialMode(): void {
    // After the reservoir change above (both apply synchronously), so there is no moment with
    // many requests allowed and an unbounded reservoir.
    this.queue.updateSettings({ maxConcurrent: null });
  }
}
