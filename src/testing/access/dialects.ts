/**
 * How the sandbox speaks: the contract's rate-limit headers, or the forms other servers and
 * proxies send (the IETF draft-10 structured fields, an epoch reset, two policies at once), and
 * behaviour beyond headers (a burst limit, 503s with Retry-After, slow list pages). A client
 * that passes against every dialect copes with servers we did not write.
 */
import type { RateLimit } from './rate-limiter.js';

/** The dialects `createSandbox({ dialect })` and `crp-sandbox --dialect` speak. */
export type DialectName =
  | 'contract'
  | 'draft10'
  | 'epoch-reset'
  | 'two-policies'
  | 'burst'
  | 'unavailable'
  | 'slow-pages';

/** Every dialect's name, the default first. */
export const DIALECT_NAMES: readonly DialectName[] = [
  'contract',
  'draft10',
  'epoch-reset',
  'two-policies',
  'burst',
  'unavailable',
  'slow-pages',
];

/** One advertised window's state after a request. */
export interface WindowView extends RateLimit {
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** Rate-clock time at which it resets. */
  resetAt: number;
}

export interface Dialect {
  name: DialectName;
  /** The windows a key with `policy` gets: the advertised ones, and hidden ones its headers never mention. */
  windows(policy: RateLimit): { advertised: RateLimit[]; hidden: RateLimit[] };
  /** The rate-limit headers for the advertised windows. */
  headers(windows: WindowView[], now: number): Record<string, string>;
  /** The Retry-After value for a wait of `seconds`. */
  retryAfter(seconds: number, now: number): string;
  /** Every Nth service request is answered 503 with Retry-After before it reaches the service (0: never). */
  unavailableEvery: number;
  /** Real milliseconds each list page takes (0: no delay). */
  pageDelayMs: number;
}

/** The burst dialect's hidden limit: this many requests per this window, whatever the budget says. */
export const BURST: RateLimit = { limit: 10, windowMs: 2_000 };
/** The unavailable dialect: every this-many-th request gets 503 with `Retry-After: 1`. */
export const UNAVAILABLE_EVERY = 3;
/** The slow-pages dialect: each list page takes this many real milliseconds. */
export const SLOW_PAGE_MS = 300;

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
/** The window closest to refusing: least remaining, then the later reset. */
const binding = (windows: WindowView[]): WindowView =>
  windows.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a,
  );

/** The contract's form: RateLimit-Limit/-Remaining/-Reset (delta seconds) for the binding window, every window in RateLimit-Policy. */
function contractHeaders(windows: WindowView[]): Record<string, string> {
  const w = binding(windows);
  return {
    'RateLimit-Limit': String(w.limit),
    'RateLimit-Remaining': String(w.remaining),
    'RateLimit-Reset': String(seconds(w.resetMs)),
    'RateLimit-Policy': windows.map((x) => `${x.limit};w=${seconds(x.windowMs)}`).join(', '),
  };
}

const contractLike = (name: DialectName, extra: Partial<Dialect> = {}): Dialect => ({
  name,
  windows: (policy) => ({ advertised: [policy], hidden: [] }),
  headers: contractHeaders,
  retryAfter: (s) => String(s),
  unavailableEvery: 0,
  pageDelayMs: 0,
  ...extra,
});

const DIALECTS: Record<DialectName, Dialect> = {
  contract: contractLike('contract'),
  // draft-ietf-httpapi-ratelimit-headers-10: both fields are structured-field Lists of named policies.
  draft10: contractLike('draft10', {
    headers: (windows) => {
      const w = windows[0] as WindowView;
      return {
        'RateLimit-Policy': `"default";q=${w.limit};w=${seconds(w.windowMs)}`,
        RateLimit: `"default";r=${w.remaining};t=${seconds(w.resetMs)}`,
      };
    },
  }),
  // The reset as a Unix time in seconds (as GitHub's X-RateLimit-Reset), a Date header to compare
  // it with, no policy field, and Retry-After as an HTTP-date.
  'epoch-reset': contractLike('epoch-reset', {
    headers: (windows, now) => {
      const w = windows[0] as WindowView;
      return {
        'RateLimit-Limit': String(w.limit),
        'RateLimit-Remaining': String(w.remaining),
        'RateLimit-Reset': String(Math.ceil(w.resetAt / 1000)),
        Date: new Date(now).toUTCString(),
      };
    },
    retryAfter: (s, now) => new Date(Math.ceil((now + s * 1000) / 1000) * 1000).toUTCString(),
  }),
  // A per-second window advertised beside the key's own (600 per minute → 60 per second as well):
  // fast callers meet the short one, steady ones the long one.
  'two-policies': contractLike('two-policies', {
    windows: (policy) => ({
      advertised: [
        {
          limit: Math.max(1, Math.ceil(policy.limit / 10)),
          windowMs: Math.max(1_000, Math.round(policy.windowMs / 60)),
        },
        policy,
      ],
      hidden: [],
    }),
  }),
  // A burst or concurrency limit the headers never mention: 429 with Retry-After while budget remains.
  burst: contractLike('burst', { windows: (policy) => ({ advertised: [policy], hidden: [BURST] }) }),
  unavailable: contractLike('unavailable', { unavailableEvery: UNAVAILABLE_EVERY }),
  'slow-pages': contractLike('slow-pages', { pageDelayMs: SLOW_PAGE_MS }),
};

export function dialectNamed(name: string): Dialect {
  const dialect = (DIALECTS as Record<string, Dialect | undefined>)[name];
  if (!dialect) throw new RangeError(`dialect must be one of ${DIALECT_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return dialect;
}
