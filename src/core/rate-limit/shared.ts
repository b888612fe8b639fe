/**
 * `rateLimit.shared`: a budget shared with other processes. The store's code lives in its own
 * import path (`@crp/partner-sdk/redis`) so that applications keeping the budget in-process do
 * not carry it: the value that entry makes holds the function that starts the sharing, and the
 * transport calls it on the client's first call.
 */
import type { Logger } from '../logger.js';
import type { Sharing } from './gate.js';
import type { RateLimitState } from './headers.js';

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
export function kindOf(value: unknown): string {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}
