/**
 * The gate: the one owner of every wait the server imposes. Each attempt passes through
 * `run(task)`: the gate holds it while the key is paused (a Retry-After, from this process or
 * another) or its window's budget is spent, runs it, and learns from the answer the task returns
 * (its parsed RateLimit fields and Retry-After), from nothing else.
 *
 * Rules, in order:
 * 1. Retry-After, on any status, pauses every send until then; it wins over the RateLimit fields.
 * 2. When a pause ends, sending resumes at once if the latest fields show budget left.
 * 3. No call waits longer than `maxWaitMs` for the server: a wait that would fails at once
 *    (`WaitTooLong`, with the wait), whoever received the pause.
 * 4. An AbortSignal stops a wait at once; `close()` settles every waiting call.
 *
 * Budget: before the first budget is known, one request at a time. Then `tokens` counts the sends
 * this process may still make in the server's current window (window.ts pins which window a
 * response speaks about). A budget shared by several processes (`Sharing`) is split: each takes
 * its part of what the server reports left (how the parts move as processes come and go: `Parts`,
 * in shared.ts; alone, a part is the whole).
 */
import { withMonotonic, type Clock, type ClientClock } from '../clock.js';
import type { WaitReason } from '../instrumentation.js';
import type { RateLimitState, ServerLimits } from './headers.js';
import { Parts, type Sharing } from './shared.js';
import { boundsOf, classify, intersect, type Bounds } from './window.js';

export type { Sharing } from './shared.js';

/** The wait this call would need is longer than allowed (rule 3). */
export class WaitTooLong extends Error {
  override readonly name = 'WaitTooLong';
  constructor(
    readonly ms: number,
    readonly reason: WaitReason,
  ) {
    super(`wait of ${ms} ms refused`);
  }
}

/** `close()` was called while the call waited. */
export class GateClosed extends Error {
  override readonly name = 'GateClosed';
}

export interface GateOptions {
  clock: Clock;
  /** rateLimit.maxRetryAfter: the longest server-imposed wait a call accepts. */
  maxWaitMs: number;
  /** Pace by the RateLimit fields; false (rateLimit: false) keeps only the Retry-After pauses. */
  pacing: boolean;
}

/** A call waiting at the gate: `go` lets it through (at `now`), `fail` refuses it. */
interface Ticket {
  call: object;
  reason: WaitReason;
  go(now: number): void;
  fail(error: unknown): void;
}

/** Why nothing may be sent now: until a moment (a pause, a window's end), or until a response in flight tells (`until` undefined). */
type Block = { until: number | undefined; pause: boolean };

export class Gate {
  readonly #clock: ClientClock;
  /**
   * Every moment the gate keeps (a window's end, a pause's, a send's) is on the clock's monotonic
   * reading: on the wall clock, a machine's clock set back two days would hold every call as long.
   */
  readonly #now: () => number;
  readonly #maxWaitMs: number;
  readonly #pacing: boolean;
  #sharing: Sharing | undefined;
  /** The sharing is still starting: hold sends until it knows how many share the key. */
  #starting = false;
  readonly #queue: Ticket[] = [];
  #inFlight = 0;
  #latest: RateLimitState | undefined;
  /** `#latest`'s reset, on the monotonic reading. */
  #latestReset = Number.NEGATIVE_INFINITY;
  #limit: number | undefined;
  #tokens = 0;
  #window: Bounds | undefined;
  /** The window's refill happened: responses still matching it are late ones. */
  #refreshed = false;
  #lastRefreshAt = Number.NEGATIVE_INFINITY;
  #pausedUntil = 0;
  /** The call whose answer set the pause: its own retry waits for `retry_after`, others for `shared_pause`. */
  #pauseOwner: object | undefined;
  #timer: { at: number; stop: AbortController } | undefined;
  #closed = false;
  /** This process's part of a shared window; alone, the whole window is ours and there is nothing to count. */
  #parts: Parts | undefined;

  constructor(options: GateOptions) {
    const clock = withMonotonic(options.clock);
    this.#clock = clock;
    this.#now = () => clock.monotonic();
    this.#maxWaitMs = options.maxWaitMs;
    this.#pacing = options.pacing;
  }

  /** The key's budget as last reported. */
  get state(): RateLimitState | undefined {
    return this.#latest;
  }

  share(sharing: Sharing): void {
    this.#sharing = sharing;
    this.#parts = new Parts();
    if (!sharing.ready) return;
    this.#starting = true;
    void sharing.ready.then(() => {
      this.#starting = false;
      this.#pump();
    });
  }

  /**
   * Run `task` when the server allows, as part of `call` (the same object for every attempt of
   * one call). Rejects with the signal's reason, `WaitTooLong` or `GateClosed` without running it.
   */
  run<T extends { limits?: ServerLimits | undefined }>(
    call: object,
    signal: AbortSignal | undefined,
    task: () => Promise<T>,
    waited?: (reason: WaitReason, ms: number) => void,
  ): Promise<T> {
    const waiting = this.#acquire(call, signal, waited);
    return waiting ? waiting.then(() => this.#send(call, task)) : this.#send(call, task);
  }

  /** The budget another process saw: used only while we have seen none ourselves (no probe needed). */
  learn(state: RateLimitState): void {
    if (this.#limit !== undefined) return;
    const now = this.#now();
    this.#observe({ rateLimit: state }, now, undefined, false);
    this.#pump();
  }

  /** A pause another process received (Retry-After of `ms`, from now). */
  pauseFromElsewhere(ms: number): void {
    this.#pause(ms, undefined);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#disarm();
    for (const ticket of this.#queue.splice(0)) ticket.fail(new GateClosed('closed'));
    return this.#sharing?.close() ?? Promise.resolve();
  }

  /** `task`, sent with a grant in hand; the gate learns from its answer. */
  async #send<T extends { limits?: ServerLimits | undefined }>(call: object, task: () => Promise<T>): Promise<T> {
    const sentAt = this.#now();
    let answer: T | undefined;
    try {
      answer = await task();
      return answer;
    } finally {
      if (answer?.limits) this.#observe(answer.limits, sentAt, call);
      this.#inFlight -= 1;
      this.#pump();
    }
  }

  /** A grant: at once (undefined), or a promise that resolves when it comes and rejects when it will not. */
  #acquire(
    call: object,
    signal: AbortSignal | undefined,
    waited: ((reason: WaitReason, ms: number) => void) | undefined,
  ): Promise<void> | undefined {
    if (this.#closed) return Promise.reject(new GateClosed('closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#now();
    if (this.#queue.length === 0 && this.#block(now) === undefined) {
      this.#grant();
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#queue.indexOf(ticket);
        if (index >= 0) this.#queue.splice(index, 1);
        ticket.fail(signal?.reason);
        this.#pump();
      };
      const ticket: Ticket = {
        call,
        reason: 'rate_budget',
        go: (at) => {
          signal?.removeEventListener('abort', onAbort);
          if (at > now) waited?.(ticket.reason, at - now);
          resolve();
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(ticket);
      this.#pump();
    });
  }

  /** Let waiting calls go while the server allows; arm one timer for the next moment it will. */
  #pump(): void {
    if (this.#closed) return;
    const now = this.#now();
    while (this.#queue.length > 0) {
      const block = this.#block(now);
      if (block === undefined) {
        const ticket = this.#queue.shift() as Ticket;
        this.#grant();
        ticket.go(now);
        continue;
      }
      for (const ticket of this.#queue) ticket.reason = this.#reasonFor(ticket, block);
      if (block.until === undefined) break; // a response in flight will tell
      const ms = block.until - now;
      if (ms > this.#maxWaitMs) {
        for (const ticket of this.#queue.splice(0)) ticket.fail(new WaitTooLong(ms, ticket.reason));
        break;
      }
      this.#arm(block.until, now);
      return;
    }
    this.#disarm();
  }

  /** Why nothing may be sent now, or undefined when something may. Refills a window that has ended. */
  #block(now: number): Block | undefined {
    if (now < this.#pausedUntil) return { until: this.#pausedUntil, pause: true };
    if (!this.#pacing) return undefined;
    if (this.#starting) return { until: undefined, pause: false };
    if (this.#window && !this.#refreshed && now >= this.#window.hi) this.#refill(now);
    if (this.#tokens > 0) return undefined;
    if (this.#window && !this.#refreshed) return { until: this.#window.hi, pause: false };
    // No budget known yet, or our refill is spent and no response has shown the next window yet:
    // one probe at a time.
    return this.#inFlight > 0 ? { until: undefined, pause: false } : undefined;
  }

  #reasonFor(ticket: Ticket, block: Block): WaitReason {
    if (!block.pause) return 'rate_budget';
    return ticket.call === this.#pauseOwner ? 'retry_after' : 'shared_pause';
  }

  #grant(): void {
    this.#inFlight += 1;
    // Before the first budget is known the count means nothing: the first one known replaces it.
    this.#tokens -= 1;
  }

  #observe(limits: ServerLimits, sentAt: number, call: object | undefined, ownAnswer = true): void {
    const now = this.#now();
    if (limits.retryAfterMs !== undefined) {
      this.#pause(limits.retryAfterMs, call);
      this.#sharing?.announcePause(limits.retryAfterMs);
    }
    const state = limits.rateLimit;
    if (!state) return;
    // resetAt was read on the wall clock just now: the same moment on the monotonic reading.
    const reset = state.resetAt.getTime() - this.#clock.now() + now;
    if (!this.#latest || reset >= this.#latestReset - 1000) {
      this.#latest = state;
      this.#latestReset = reset;
    }
    if (!this.#pacing) return;
    const bounds = boundsOf(reset, now, sentAt);
    let verdict = classify(this.#window, bounds);
    // A response matching a window we already refilled for, or sent before that refill, is late:
    // its Remaining counts requests of the old window and says nothing of the new one.
    if (verdict === 'same' && (this.#refreshed || sentAt < this.#lastRefreshAt)) verdict = 'older';
    if (verdict === 'older') return;
    const sharers = this.#sharers();
    // This process's part of the server's Remaining, read pessimistically: none of our other
    // requests in flight counted yet.
    const pessimistic = Math.floor(state.remaining / sharers) - (this.#inFlight - (ownAnswer ? 1 : 0));
    if (verdict === 'first' || (verdict === 'newer' && !this.#refreshed)) {
      this.#tokens = pessimistic;
    } else {
      // Our own count is exact while only we (or the processes we split the refill with) use the
      // key; lower it only when the server has fewer left than even that count needs (a client
      // outside, a lower limit). Processes spend their parts at different speeds, so the check is
      // against the whole Remaining, not our part of it.
      const own = this.#tokens + Math.floor((state.limit - (this.#limit ?? state.limit)) / sharers);
      this.#tokens = own <= state.remaining ? own : Math.min(own, pessimistic);
    }
    if (verdict === 'same' && this.#window) {
      this.#window = intersect(this.#window, bounds);
    } else {
      this.#window = bounds;
      this.#refreshed = false;
    }
    this.#limit = state.limit;
  }

  /** How many processes share the key now; our count shrinks in proportion when more have joined. */
  #sharers(): number {
    if (!this.#sharing || !this.#parts) return 1;
    const sharers = Math.max(1, this.#sharing.sharers());
    this.#tokens = this.#parts.joined(sharers, this.#tokens);
    return sharers;
  }

  #refill(now: number): void {
    const sharers = this.#sharers();
    const splitBy = this.#parts ? this.#parts.refillSplit(sharers) : sharers;
    // Everything still in flight may be counted in the new window: leave room for it.
    this.#tokens = Math.max(1, Math.floor((this.#limit ?? 1) / splitBy)) - this.#inFlight;
    this.#refreshed = true;
    this.#lastRefreshAt = now;
  }

  #pause(ms: number, owner: object | undefined): void {
    const until = this.#now() + ms;
    if (until > this.#pausedUntil) {
      this.#pausedUntil = until;
      this.#pauseOwner = owner;
    }
    this.#pump();
  }

  #arm(at: number, now: number): void {
    if (this.#timer?.at === at) return;
    this.#disarm();
    const timer = { at, stop: new AbortController() };
    this.#timer = timer;
    this.#clock.sleep(Math.max(0, at - now), timer.stop.signal).then(
      () => {
        if (this.#timer !== timer) return;
        this.#timer = undefined;
        this.#pump();
      },
      (error: unknown) => {
        // Our own disarm aborts the sleep: nothing to do. Any other failure is the clock's, and no
        // timer would ever wake the calls waiting on it, so they fail with it now.
        if (timer.stop.signal.aborted) return;
        this.#timer = undefined;
        for (const ticket of this.#queue.splice(0)) ticket.fail(error);
      },
    );
  }

  #disarm(): void {
    this.#timer?.stop.abort();
    this.#timer = undefined;
  }
}
