/** One handled request, as `sandbox.requests` and `GET /_sandbox/requests` give it. */
export interface LoggedRequest {
  /** 1, 2, 3 … in the order requests arrived, never reused (a reset does not start it again). */
  seq: number;
  /** The HTTP method, in upper case. */
  method: string;
  /** The path asked for, without the query (`/partner/v1/reservations`). */
  path: string;
  /** The status the caller saw; 0 when it got no response (connection reset, hang, gave up). */
  status: number;
  /** The `x-request-id` the sandbox gave the request (also on faulted answers). */
  requestId: string;
  /** When it arrived, in epoch milliseconds of the rate-limit clock (real time by default). */
  at: number;
  /** The status the service logic produced, when it ran; absent when a fault answered first. */
  serviceStatus?: number;
  /** The fault that shaped the answer, if any: 'status', 'reset', 'hang', 'delay', 'malformed'. */
  fault?: string;
  /**
   * The request's headers as the sandbox received them, names in lower case (`traceparent`,
   * `user-agent`, `content-type`…). Secrets are never kept: `authorization`, `proxy-authorization`
   * and `x-sandbox-admin-token` keep only a known scheme (`Bearer [redacted]`), else read `[redacted]`.
   */
  headers: Readonly<Record<string, string>>;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-sandbox-admin-token']);

/** `LoggedRequest.headers` for a request, secrets redacted. */
export function loggedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name) ? redacted(value) : value;
  });
  return out;
}

/**
 * The value with its secret gone. Only a known scheme word is kept: anything else before a space
 * could be the key itself (`Authorization: crp_test_… extra`).
 */
function redacted(value: string): string {
  const scheme = /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : '[redacted]';
}

/** Which logged requests `sandbox.requestCount()` counts; every field given must match. */
export interface RequestFilter {
  /** The HTTP method, in any case. */
  method?: string;
  /** Exact path, or a pattern. */
  path?: string | RegExp;
  /** One status, or a test on it. */
  status?: number | ((status: number) => boolean);
  /** Only requests whose service logic ran and succeeded (2xx): effects that took place. */
  effective?: boolean;
}

/** A bounded log of the most recent requests (a ring buffer, oldest dropped first). */
export class RequestLog {
  readonly #items: LoggedRequest[] = [];
  #head = 0;
  #lastSeq = 0;

  constructor(readonly capacity = 100_000) {}

  add(fields: Omit<LoggedRequest, 'seq'>): void {
    const entry: LoggedRequest = { seq: ++this.#lastSeq, ...fields };
    if (this.#items.length < this.capacity) this.#items.push(entry);
    else {
      this.#items[this.#head] = entry;
      this.#head = (this.#head + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  all(): LoggedRequest[] {
    return [...this.#items.slice(this.#head), ...this.#items.slice(0, this.#head)];
  }

  /** Up to `limit` entries with a seq above `after`, oldest first. */
  read(after: number, limit: number): LoggedRequest[] {
    const n = this.#items.length;
    const at = (i: number) => this.#items[(this.#head + i) % n] as LoggedRequest;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(mid).seq <= after) lo = mid + 1;
      else hi = mid;
    }
    const out: LoggedRequest[] = [];
    for (let i = lo; i < n && out.length < limit; i++) out.push(at(i));
    return out;
  }

  /** Whether an entry has a seq above `after`. */
  hasAfter(after: number): boolean {
    return this.#lastSeq > after;
  }

  count(filter: RequestFilter = {}): number {
    let n = 0;
    for (const entry of this.#items) if (matches(entry, filter)) n++;
    return n;
  }

  clear(): void {
    this.#items.length = 0;
    this.#head = 0;
  }
}

function matches(entry: LoggedRequest, f: RequestFilter): boolean {
  if (f.method !== undefined && entry.method !== f.method.toUpperCase()) return false;
  if (f.path !== undefined && (typeof f.path === 'string' ? entry.path !== f.path : !f.path.test(entry.path)))
    return false;
  if (f.status !== undefined && (typeof f.status === 'number' ? entry.status !== f.status : !f.status(entry.status)))
    return false;
  if (f.effective !== undefined) {
    const effective = entry.serviceStatus !== undefined && entry.serviceStatus >= 200 && entry.serviceStatus < 300;
    if (effective !== f.effective) return false;
  }
  return true;
}
