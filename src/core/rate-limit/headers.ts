/**
 * Reading a response's rate-limit fields. Two steps: `readRateLimitFields` gives the reading in
 * neutral terms (policies, remaining and reset per policy), checked against the IETF draft's own
 * examples; `budgetOf` reduces it to the one budget the client paces by (the most restrictive
 * request policy). Forms understood: draft-10 (`RateLimit: "default";r=50;t=30`,
 * `RateLimit-Policy: "default";q=600;w=60`), draft-07 (`RateLimit: limit=600, remaining=50, reset=30`)
 * and draft-06 and earlier, the contract's own (`RateLimit-Limit` / `-Remaining` / `-Reset`,
 * `RateLimit-Policy: 600;w=60`, also as `X-RateLimit-*`). A malformed field is ignored whole.
 *
 * Retry-After (RFC 9110 §10.2.3) is read here too: on any status that carries it, it is the
 * server's word (draft-ietf-httpapi-ratelimit-headers-10 §6: it wins over the RateLimit fields).
 * Each response's fields are read once, by the attempt (`readServerLimits`); the gate is their only reader.
 */
import { parseList, parseDictionary, type BareItem } from './structured-fields.js';

/** What one answer says of the key's limits: the gate learns from this and from nothing else. */
export interface ServerLimits {
  /** The budget its RateLimit fields show. */
  rateLimit?: RateLimitState | undefined;
  /** Its Retry-After, in ms from when it was read. */
  retryAfterMs?: number | undefined;
}

/** The key's budget as a response reported it. */
export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window, as of the response. */
  remaining: number;
  /** When the current window ends (the budget refills then). */
  resetAt: Date;
  /** Window length in ms, when the server states it (`w=` in the policy). */
  windowMs?: number;
}

/** One quota policy. `name` is absent in the older forms, which have a single unnamed policy. */
export interface Policy {
  name?: string;
  quota?: number;
  /** Seconds. */
  window?: number;
  /** `requests` unless stated (`qu`); a quota in another unit does not limit the request count. */
  unit?: string;
  partitionKey?: string;
}

/** The fields of one response, in neutral terms; remaining and reset are keyed by policy name ('' when unnamed). */
export interface RateLimitReading {
  policies: Policy[];
  remaining: Record<string, number>;
  resetSeconds: Record<string, number>;
}

/** A reset above this many seconds is an epoch time, not a delay (10^9 s is 2001). */
const EPOCH_THRESHOLD_SECONDS = 1e9;
/** Longest reset believed; a larger one (a day of nines, 1e300) is clamped so no wait overflows. */
export const MAX_SERVER_WAIT_MS = 24 * 60 * 60 * 1000;
const DEFAULT_WINDOW_SECONDS = 60;

/** The fields as the server sent them, or undefined when there are none (or all are malformed). */
export function readRateLimitFields(headers: Headers): RateLimitReading | undefined {
  const reading: RateLimitReading = {
    policies: readPolicies(headers.get('ratelimit-policy')),
    remaining: {},
    resetSeconds: {},
  };
  const combined = headers.get('ratelimit');
  if (combined !== null) readCombined(combined, reading);
  else readSeparate(headers, reading);
  const empty = reading.policies.length === 0 && Object.keys(reading.remaining).length === 0;
  return empty ? undefined : reading;
}

/** The budget to pace by: the request policy with the fewest requests left. */
export function budgetOf(reading: RateLimitReading, now: number): RateLimitState | undefined {
  let best: RateLimitState | undefined;
  for (const [name, remaining] of Object.entries(reading.remaining)) {
    const policy =
      reading.policies.find((p) => (p.name ?? '') === name) ??
      (reading.policies.length === 1 ? reading.policies[0] : undefined);
    if (policy?.unit !== undefined && policy.unit !== 'requests') continue;
    const windowSeconds = policy?.window;
    const reset = reading.resetSeconds[name];
    const seconds = reset === undefined ? (windowSeconds ?? DEFAULT_WINDOW_SECONDS) : reset;
    const resetMs = seconds > EPOCH_THRESHOLD_SECONDS ? seconds * 1000 - now : seconds * 1000;
    const state: RateLimitState = {
      limit: Math.max(policy?.quota ?? remaining, remaining),
      remaining,
      resetAt: new Date(now + Math.min(Math.max(0, resetMs), MAX_SERVER_WAIT_MS)),
    };
    if (windowSeconds !== undefined) state.windowMs = windowSeconds * 1000;
    if (!best || state.remaining < best.remaining) best = state;
  }
  return best;
}

/** Shorthand: the budget a response shows, if any. */
export function parseRateLimitHeaders(headers: Headers, now: number): RateLimitState | undefined {
  const reading = readRateLimitFields(headers);
  return reading && budgetOf(reading, now);
}

/** Everything a response's headers say of the key's limits, read at `now`. */
export function readServerLimits(headers: Headers, now: number): ServerLimits {
  return {
    rateLimit: parseRateLimitHeaders(headers, now),
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), now),
  };
}

/** The last policy field read, and what it said: the service sends the same one every time. */
let lastPolicyText: string | undefined;
let lastPolicies: readonly Policy[] = [];

/** A copy (readings add to their list): `600;w=60` or draft-10's `"name";q=100;w=60;qu="requests";pk=:…:`. */
function readPolicies(value: string | null): Policy[] {
  if (value === null) return [];
  if (value !== lastPolicyText) {
    lastPolicies = policiesOf(value);
    lastPolicyText = value;
  }
  return [...lastPolicies];
}

function policiesOf(value: string): Policy[] {
  const policies: Policy[] = [];
  for (const { value: head, params } of parseList(value) ?? []) {
    // draft-10 names each policy and gives its quota as q; the older forms have one, quota first.
    const named = head.type === 'string';
    const quota = count(named ? params.get('q') : head);
    if (quota === undefined) return []; // one bad member: the field is ignored whole
    const policy: Policy = named ? { name: head.value as string, quota } : { quota };
    const window = count(params.get('w'));
    if (window) policy.window = window; // w=0 states no window
    const unit = params.get('qu');
    if (named && unit?.type === 'string') policy.unit = unit.value as string;
    const key = params.get('pk');
    if (named && key?.type === 'bytes') policy.partitionKey = key.value as string;
    policies.push(policy);
  }
  return policies;
}

function readCombined(value: string, reading: RateLimitReading): void {
  // draft-07: one dictionary, `limit=100, remaining=50, reset=5`.
  const dictionary = parseDictionary(value);
  if (dictionary?.has('remaining')) {
    const number = (name: string) => (dictionary.has(name) ? (count(dictionary.get(name)) ?? Number.NaN) : undefined);
    readUnnamed(reading, number('remaining'), number('limit'), number('reset'));
    return;
  }
  // draft-10: a list of Strings naming policies, each with r (required) and t.
  const items = parseList(value);
  if (!items) return;
  const remaining: Record<string, number> = {};
  const resetSeconds: Record<string, number> = {};
  for (const item of items) {
    const r = count(item.params.get('r'));
    if (item.value.type !== 'string' || r === undefined) return; // malformed: ignored whole
    const name = item.value.value as string;
    remaining[name] = r;
    const t = count(item.params.get('t'));
    if (t !== undefined) resetSeconds[name] = t;
  }
  reading.remaining = remaining;
  reading.resetSeconds = resetSeconds;
}

/** draft-06 and earlier: `RateLimit-Remaining`, `-Limit` and `-Reset` (or `X-RateLimit-*`), each a number. */
function readSeparate(headers: Headers, reading: RateLimitReading): void {
  const field = (name: string) => headers.get(`ratelimit-${name}`) ?? headers.get(`x-ratelimit-${name}`);
  const remainingText = field('remaining');
  if (remainingText === null) return;
  const limitText = field('limit');
  const resetText = field('reset');
  const remaining = integerText(remainingText);
  const limit = limitText === null ? undefined : integerText(limitText.split(/[,;]/, 1)[0] as string);
  const reset = resetText === null ? undefined : integerText(resetText);
  if (!valid(remaining, limit, reset)) return;
  if (reading.policies.length === 0 && limitText?.includes(';')) {
    // draft-03: the policies ride on RateLimit-Limit itself (`600, 600;w=60`), the limit first.
    reading.policies = readPolicies(limitText).filter((p) => p.window !== undefined);
  }
  // Here the limit stated beside the policy is the one that counts.
  if (limit !== undefined && reading.policies[0]) reading.policies[0] = { ...reading.policies[0], quota: limit };
  readUnnamed(reading, remaining, limit, reset);
}

/** One unnamed policy's figures: undefined when not sent, NaN when malformed (then all are ignored). */
function readUnnamed(
  reading: RateLimitReading,
  remaining: number | undefined,
  limit: number | undefined,
  reset: number | undefined,
): void {
  if (!valid(remaining, limit, reset)) return;
  if (reading.policies.length === 0 && limit !== undefined) reading.policies.push({ quota: limit });
  reading.remaining[''] = remaining;
  if (reset !== undefined) reading.resetSeconds[''] = reset;
}

function valid(
  remaining: number | undefined,
  limit: number | undefined,
  reset: number | undefined,
): remaining is number {
  return remaining !== undefined && !Number.isNaN(remaining) && !Number.isNaN(limit) && !Number.isNaN(reset);
}

/** A non-negative integer a timer and a counter can hold, or NaN. */
function integerText(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function count(item: BareItem | undefined): number | undefined {
  if (item?.type !== 'integer') return undefined;
  const n = item.value as number;
  return n >= 0 && Number.isSafeInteger(n) ? n : undefined;
}

const DELAY_SECONDS = /^\d{1,15}$/;
// IMF-fixdate, RFC 850 and asctime all name a month and carry hh:mm:ss. Checking for that keeps
// Date.parse from accepting things like "5" (a year) or "1 2".
const HTTP_DATE = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s-].*\d{1,2}:\d{2}:\d{2}/i;

/**
 * Retry-After in ms (relative to `now` for a date), clamped to a day so no timer overflows;
 * undefined when absent or malformed (negative, a fraction, garbage).
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Math.min(Number(text) * 1000, MAX_SERVER_WAIT_MS);
  // 400 nines: not a number a delay can be, and not a date either, but plainly "a long time".
  if (/^\d{16,}$/.test(text)) return MAX_SERVER_WAIT_MS;
  if (!HTTP_DATE.test(text)) return undefined;
  // HTTP-dates are always GMT; asctime's form does not say so, and Date.parse would read local time.
  const at = Date.parse(/gmt$/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  // A date in the past means "now"; never a negative wait.
  return Math.min(Math.max(0, at - now), MAX_SERVER_WAIT_MS);
}
