/**
 * Reading the server's budget from response headers.
 *
 * The contract (Rate limits) sends `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`
 * (delta-seconds) and `RateLimit-Policy: 600;w=60`. We also read what servers and proxies send
 * in the wild: an epoch-seconds Reset, `X-RateLimit-*`, the draft-07 combined header
 * (`RateLimit: limit=600, remaining=50, reset=30`) and the newer structured fields
 * (`RateLimit: "default";r=50;t=30`, `RateLimit-Policy: "default";q=600;w=60`).
 */

export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window, as of the response. */
  remaining: number;
  /** When the current window ends (the reservoir may refill then). */
  resetAt: Date;
  /** Window length in ms, when the server states it (`w=` in the policy). */
  windowMs?: number;
}

/** A Reset larger than this many seconds is an epoch time, not a delay (10^9 s is 2001). */
const EPOCH_THRESHOLD_SECONDS = 1e9;
/** When a budget comes without any reset time, assume the window lasts this long (safe side). */
const DEFAULT_WINDOW_MS = 60_000;

interface Item {
  name: string;
  params: Map<string, string>;
}

/**
 * Parse RateLimit-Limit / -Remaining / -Reset (delta-seconds; an epoch-seconds value is tolerated),
 * RateLimit-Policy (`600;w=60`) and the structured form (`RateLimit: "default";r=50;t=30`,
 * `RateLimit-Policy: "default";q=600;w=60`). undefined when the response shows no budget.
 */
export function parseRateLimitHeaders(headers: Headers, now: number): RateLimitState | undefined {
  return parseStructured(headers, now) ?? parseSeparate(headers, now);
}

function parseStructured(headers: Headers, now: number): RateLimitState | undefined {
  const value = headers.get('ratelimit');
  if (value === null) return undefined;
  const items = parseList(value);
  const policies = parseListCached(headers.get('ratelimit-policy'));

  // Draft-07 style: one item per key (`limit=600, remaining=50, reset=30`).
  const flat = new Map<string, string>();
  for (const item of items) {
    const eq = item.name.indexOf('=');
    if (eq > 0) flat.set(item.name.slice(0, eq).trim().toLowerCase(), item.name.slice(eq + 1).trim());
  }
  if (flat.has('remaining')) {
    const remaining = toCount(flat.get('remaining'));
    if (remaining === undefined) return undefined;
    const policy = policies[0];
    const windowMs = toSeconds(policy?.params.get('w')) ?? undefined;
    const limit = toCount(flat.get('limit')) ?? toCount(policy?.name) ?? remaining;
    return build(limit, remaining, flat.get('reset'), windowMs, now);
  }

  // Structured (draft-08 and later): the most restrictive policy decides.
  let best: RateLimitState | undefined;
  for (const item of items) {
    const remaining = toCount(item.params.get('r'));
    if (remaining === undefined) continue;
    const policy = policies.find((p) => p.name === item.name) ?? (policies.length === 1 ? policies[0] : undefined);
    const windowMs = toSeconds(policy?.params.get('w'));
    const limit = toCount(policy?.params.get('q')) ?? remaining;
    const state = build(limit, remaining, item.params.get('t'), windowMs, now);
    if (state && (!best || state.remaining < best.remaining)) best = state;
  }
  return best;
}

function parseSeparate(headers: Headers, now: number): RateLimitState | undefined {
  const remaining = toCount(firstToken(either(headers, 'remaining')));
  if (remaining === undefined) return undefined;
  const limitValue = either(headers, 'limit');
  // RateLimit-Limit may be `600` or draft-03's `600, 600;w=60`; the policy is `600;w=60`.
  const policy = parseListCached(headers.get('ratelimit-policy'))[0];
  const limitPolicy = limitValue?.includes(';') ? parseList(limitValue).find((item) => item.params.has('w')) : undefined;
  const windowMs = toSeconds(policy?.params.get('w') ?? limitPolicy?.params.get('w'));
  const limit = toCount(firstToken(limitValue)) ?? toCount(policy?.name) ?? remaining;
  return build(limit, remaining, firstToken(either(headers, 'reset')) ?? undefined, windowMs, now);
}

function either(headers: Headers, name: string): string | null {
  return headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
}

/**
 * The policy header repeats the same text on every response; parsing it once per distinct value
 * keeps the per-response cost to a few header lookups (this runs for every call).
 */
let lastPolicy: { value: string; items: Item[] } = { value: '', items: [] };

function parseListCached(value: string | null): Item[] {
  if (value === null) return [];
  if (value !== lastPolicy.value) lastPolicy = { value, items: parseList(value) };
  return lastPolicy.items;
}

function build(
  limit: number,
  remaining: number,
  reset: string | undefined,
  windowMs: number | undefined,
  now: number,
): RateLimitState | undefined {
  let resetAt: number;
  if (reset === undefined) {
    resetAt = now + (windowMs ?? DEFAULT_WINDOW_MS);
  } else {
    const seconds = Number(reset);
    if (reset.trim() === '' || !Number.isFinite(seconds) || seconds < 0) return undefined;
    resetAt = seconds > EPOCH_THRESHOLD_SECONDS ? seconds * 1000 : now + seconds * 1000;
  }
  const state: RateLimitState = { limit: Math.max(limit, remaining), remaining, resetAt: new Date(resetAt) };
  if (windowMs !== undefined) state.windowMs = windowMs;
  return state;
}

function firstToken(value: string | null): string | null {
  if (value === null) return null;
  const end = value.search(/[,;]/);
  return (end < 0 ? value : value.slice(0, end)).trim();
}

function toCount(value: string | undefined | null): number | undefined {
  if (value === undefined || value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

function toSeconds(value: string | undefined): number | undefined {
  const count = toCount(value);
  return count === undefined || count === 0 ? undefined : count * 1000;
}

/** A structured-field list (RFC 8941, loosely): items split on commas, params on semicolons. */
function parseList(value: string): Item[] {
  const items: Item[] = [];
  for (const raw of splitOutsideQuotes(value, ',')) {
    const [head = '', ...rest] = splitOutsideQuotes(raw, ';');
    const name = unquote(head.trim());
    if (name === '') continue;
    const params = new Map<string, string>();
    for (const param of rest) {
      const eq = param.indexOf('=');
      const key = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      if (key !== '') params.set(key, eq < 0 ? '1' : unquote(param.slice(eq + 1).trim()));
    }
    items.push({ name, params });
  }
  return items;
}

function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
