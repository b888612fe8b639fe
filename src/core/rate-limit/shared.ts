/**
 * `rateLimit.shared`: a budget shared with other processes. The store's code lives in its own
 * import path (`@crp/partner-sdk/redis`) so that applications keeping the budget in-process do
 * not carry it: the value that entry makes holds the function that starts the sharing, and the
 * transport calls it on the client's first call.
 */
import type { Logger } from '../logger.js';
import type { RateLimitState } from './headers.js';

/** A budget shared with other processes (`rateLimit.shared`). */
export interface Sharing {
  /** Processes sharing the key, this one included (the last known count while the store is down). */
  sharers(): number;
  /** Tell the other processes that the server asked for a pause of `ms`. */
  announcePause(ms: number): void;
  /** Resolves when the first send may go (the other processes had a chance to say they are there); never rejects. */
  readonly ready?: Promise<void>;
  /** Release connections and timers; settles within a second whatever the store does. */
  close(): Promise<void>;
}

/**
 * How this process's part of a shared window is counted as processes come and go (alone: the
 * whole window, and nothing here changes anything).
 */
export class Parts {
  /** How many processes shared the key when our count was last set. */
  #sharedBy = 1;
  /** The most processes seen sharing the key since our last refill. */
  #mostSinceRefill = 1;

  /** Our count, `tokens`, now that `sharers` share the key: shrunk in proportion if more have joined. */
  joined(sharers: number, tokens: number): number {
    const parts = sharers > this.#sharedBy && tokens > 0 ? Math.floor((tokens * this.#sharedBy) / sharers) : tokens;
    this.#sharedBy = sharers;
    if (sharers > this.#mostSinceRefill) this.#mostSinceRefill = sharers;
    return parts;
  }

  /**
   * What a refill is split by. Our refill can come later than the server's (up to the second its
   * Reset rounds to): a process that left since the last refill may have spent its part of the new
   * window before it went. So it is the most processes seen since; a departure counts from the
   * window after.
   */
  refillSplit(sharers: number): number {
    const splitBy = this.#mostSinceRefill;
    this.#mostSinceRefill = sharers;
    return splitBy;
  }
}

/**
 * A key's rate budget shared by every client that uses the key, in any process. Made by
 * `redisBudget()` from `@crp/partner-sdk/redis`; pass it as `rateLimit: { shared }`.
 */
export interface SharedBudget {
  /** Where the sharing is coordinated. */
  readonly store: 'redis';
}

/** What the transport gives the store to start sharing with. */
export interface SharedBudgetContext {
  /** `crp-partner-sdk:<key fingerprint>`: the same for every process using the key. */
  id: string;
  now: () => number;
  logger: Logger;
  /** Another process received a Retry-After of `ms`: pause this one too. */
  onPause: (ms: number) => void;
  /** The budget this process last saw, to tell a newcomer. */
  budget: () => RateLimitState | undefined;
  /** The budget another process last saw: a start without a probe of our own. */
  onBudget: (state: RateLimitState) => void;
}

type Start = (context: SharedBudgetContext) => Sharing;

// Symbol.for: the value is made by one bundle (dist/redis/index.js) and read by another (dist/index.js).
const START = Symbol.for('@crp/partner-sdk.SharedBudget.start');

export function defineSharedBudget(store: SharedBudget['store'], start: Start): SharedBudget {
  return Object.freeze(Object.defineProperty({ store }, START, { value: start }));
}

export function isSharedBudget(value: unknown): value is SharedBudget {
  return typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[START] === 'function';
}

export function startSharedBudget(budget: SharedBudget, context: SharedBudgetContext): Sharing {
  return (budget as unknown as Record<typeof START, Start>)[START](context);
}

/** A refused option's kind, without echoing it (a Redis URL may carry a password). */
export function kindWithoutValue(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}
