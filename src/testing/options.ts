import { dialectNamed, type Dialect, type DialectName } from './access/dialects.js';
import type { RateLimit } from './access/rate-limiter.js';

/** The store as `sampleReview` sees it. */
export interface SampleReviewStore {
  /** The store's id. */
  partner_location_id: string;
  /** The store's plan, or null when it has none. */
  plan: { name: string; videos_per_month: number } | null;
  /** The store's address as enrolled. */
  address: { country: string; state: string; postal_code: string; city: string; line1: string };
}

/** Options of `createSandbox()`. Every option is optional. */
export interface SandboxOptions {
  /**
   * Seed of every random draw (creators, bookings and their outcomes, and keys). The same seed
   * and the same calls give the same data. Keys repeat only when a seed is given; without one
   * they come from crypto randomness (the data still follows seed 1).
   * @default 1
   */
  seed?: number;
  /**
   * Start of simulated time. Bookings, visits and videos happen only as `clock.advance()` moves it.
   * @default new Date('2026-12-01T09:00:00Z')
   */
  now?: Date | string | number;
  /**
   * New bookings per week for each active store whose opening hours are known (a Poisson process).
   * @default 3
   */
  visitsPerWeek?: number;
  /**
   * The rate limit of keys issued without one: `limit` requests per fixed window of `windowMs`
   * milliseconds. A field left out keeps its default: `{ limit: 10 }` is 10 per minute.
   * @default { limit: 600, windowMs: 60_000 }
   */
  rateLimit?: Partial<RateLimit>;
  /**
   * The caller's IP address for in-process requests (`handle` without `remoteAddress`, msw),
   * checked against a key's `allowIps`.
   * @default '127.0.0.1'
   */
  callerAddress?: string;
  /** Features not yet switched on in the service. */
  features?: {
    /**
     * Serve `POST /locations/{id}/dashboard-token`; off, it answers 403 feature_not_enabled.
     * @default false
     */
    dashboardToken?: boolean;
  };
  /**
   * Which stores use creator sample review. Others get 404 not_found on `creator-samples`.
   * @default (store) => store.plan !== null   // stores enrolled with a plan
   */
  sampleReview?: (store: SampleReviewStore) => boolean;
  /**
   * The clock of rate-limit windows and of the request log, in epoch milliseconds. By default the
   * REAL clock: clients wait on real timers for Retry-After, and a window on simulated time would
   * never reopen for a client that waits unless something advances the clock. `'simulated'` puts
   * the windows on the sandbox clock (advance it to reopen them); a function injects any clock,
   * to test windows without sleeping.
   * @default Date.now
   */
  rateLimitClock?: (() => number) | 'simulated';
  /**
   * How the sandbox speaks: `'contract'` (the contract's headers), `'draft10'` (structured
   * `RateLimit` / `RateLimit-Policy` fields), `'epoch-reset'` (reset as a Unix time, Retry-After as
   * an HTTP-date), `'two-policies'` (a per-second window beside the key's own), `'burst'` (429 with Retry-After while the window still has
   * budget), `'unavailable'` (every 3rd request 503 with Retry-After), `'slow-pages'`. See docs/sandbox.md.
   * @default 'contract'
   */
  dialect?: DialectName;
  /**
   * How many requests `sandbox.requests` keeps (oldest dropped first).
   * @default 100_000
   */
  requestLogSize?: number;
  /**
   * When set, every call to the control API (`/_sandbox/…`) must carry it in the header
   * `X-Sandbox-Admin-Token`. Needed to serve on an address other than loopback.
   * @default undefined (the control API is open to whoever can reach the port)
   */
  adminToken?: string;
  /**
   * Other names the sandbox answers to over a real port (`listen()`), beside localhost, 127.0.0.1,
   * [::1] and the address it binds: `'sandbox'` (any port) or `'sandbox:4010'` (that port only),
   * e.g. its service name in docker compose. Any other `Host` gets 403 `forbidden_host`, so a web
   * page cannot reach it by pointing its own name at this machine (DNS rebinding).
   * @default []
   * @example createSandbox({ adminToken, allowedHosts: ['sandbox'] }).listen(4010, '0.0.0.0')
   */
  allowedHosts?: readonly string[];
}

export interface ResolvedOptions {
  seed: number;
  /** Whether `seed` was given (keys then follow it). */
  seeded: boolean;
  start: number;
  visitsPerWeek: number;
  rateLimit: RateLimit;
  callerAddress: string;
  dashboardToken: boolean;
  sampleReview: (store: SampleReviewStore) => boolean;
  rateLimitClock: (() => number) | 'simulated';
  dialect: Dialect;
  requestLogSize: number;
  adminToken: string | undefined;
  allowedHosts: readonly string[];
}

export const DEFAULT_START = '2026-12-01T09:00:00Z';
const DEFAULT_RATE_LIMIT: RateLimit = { limit: 600, windowMs: 60_000 };

/**
 * A rate limit as given, each field left out taken from `fallback` (the defaults, or for a key the
 * sandbox's own), so a default never clashes with what was given. Only a given value is refused.
 */
export function rateLimitOf(given: Partial<RateLimit> | undefined, fallback: RateLimit, where: string): RateLimit {
  if (given === undefined) return fallback;
  const { limit, windowMs } = given;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new RangeError(`${where}: rateLimit.limit must be a whole number of 1 or more; got ${String(limit)}`);
  }
  if (windowMs !== undefined && !(typeof windowMs === 'number' && windowMs > 0 && Number.isFinite(windowMs))) {
    throw new RangeError(
      `${where}: rateLimit.windowMs must be a number of milliseconds above 0; got ${String(windowMs)}`,
    );
  }
  return { limit: limit ?? fallback.limit, windowMs: windowMs ?? fallback.windowMs };
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const start = new Date(options.now ?? DEFAULT_START).getTime();
  if (Number.isNaN(start)) throw new RangeError('createSandbox: `now` is not a valid date');
  const visitsPerWeek = options.visitsPerWeek ?? 3;
  if (!(visitsPerWeek >= 0)) throw new RangeError('createSandbox: `visitsPerWeek` must be 0 or more');
  return {
    seed: options.seed ?? 1,
    seeded: options.seed !== undefined,
    start,
    visitsPerWeek,
    rateLimit: rateLimitOf(options.rateLimit, DEFAULT_RATE_LIMIT, 'createSandbox'),
    callerAddress: options.callerAddress ?? '127.0.0.1',
    dashboardToken: options.features?.dashboardToken ?? false,
    sampleReview: options.sampleReview ?? ((store) => store.plan !== null),
    rateLimitClock: options.rateLimitClock ?? Date.now,
    dialect: dialectNamed(options.dialect ?? 'contract'),
    requestLogSize: options.requestLogSize ?? 100_000,
    adminToken: options.adminToken,
    allowedHosts: allowedHostsOf(options.allowedHosts),
  };
}

/** A host name, or an IP (v6 in brackets), with an optional :port; nothing else (no scheme, path, or wildcard). */
export const HOST_ENTRY = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function allowedHostsOf(given: readonly string[] | undefined): readonly string[] {
  for (const entry of given ?? []) {
    if (typeof entry !== 'string' || !HOST_ENTRY.test(entry)) {
      throw new RangeError(
        `createSandbox: allowedHosts entry ${JSON.stringify(entry)} is not a host name or address with an optional :port (e.g. 'sandbox' or 'sandbox:4010')`,
      );
    }
  }
  return [...(given ?? [])];
}
