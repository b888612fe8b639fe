/**
 * A fixed-window rate-limited server as the contract describes it: the window starts with its
 * first request, every response carries RateLimit-Limit / -Remaining / -Reset (delta-seconds,
 * rounded up) / -Policy, and a request over the limit gets 429 with Retry-After.
 */
export interface FakeServerOptions {
  limit: number;
  windowMs: number;
  /** One-way delay in ms, each way (so round trip is twice this); a function for jitter. */
  latencyMs?: number | (() => number);
  now?: () => number;
}

export interface Arrival {
  at: number;
  window: number;
  status: number;
}

export interface FakeServer {
  request(): Promise<Response>;
  /** Change the limit; it applies to the current window at once (remaining = limit - count). */
  setLimit(limit: number): void;
  /** Answer the next n requests with 429 and this Retry-After value, without budget headers. */
  failNext(n: number, retryAfter: string): void;
  readonly arrivals: Arrival[];
  readonly ok: number;
  readonly limited: number;
  /** Requests counted per window, in order. */
  readonly perWindow: number[];
  readonly maxInFlight: number;
}

export function createFakeServer(options: FakeServerOptions): FakeServer {
  const clock = options.now ?? Date.now;
  const latency =
    typeof options.latencyMs === 'function' ? options.latencyMs : () => (options.latencyMs as number | undefined) ?? 0;
  let limit = options.limit;
  let windowStart: number | undefined;
  let windowIndex = -1;
  let count = 0;
  let inFlight = 0;
  let forced = 0;
  let forcedRetryAfter = '1';
  const stats = { ok: 0, limited: 0, maxInFlight: 0 };
  const arrivals: Arrival[] = [];
  const perWindow: number[] = [];
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    async request() {
      inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      try {
        await sleep(latency());
        const now = clock();
        if (windowStart === undefined || now >= windowStart + options.windowMs) {
          windowStart = now;
          windowIndex += 1;
          count = 0;
          perWindow.push(0);
        }
        const resetSeconds = Math.ceil((windowStart + options.windowMs - now) / 1000);
        const headers = new Headers({
          'ratelimit-limit': String(limit),
          'ratelimit-policy': `${limit};w=${options.windowMs / 1000}`,
          'ratelimit-reset': String(resetSeconds),
        });
        let status = 200;
        if (forced > 0) {
          forced -= 1;
          status = 429;
          headers.delete('ratelimit-limit');
          headers.delete('ratelimit-policy');
          headers.delete('ratelimit-reset');
          headers.set('retry-after', forcedRetryAfter);
        } else if (count >= limit) {
          status = 429;
          headers.set('ratelimit-remaining', '0');
          headers.set('retry-after', String(resetSeconds));
        } else {
          count += 1;
          perWindow[windowIndex] = count;
          headers.set('ratelimit-remaining', String(Math.max(0, limit - count)));
        }
        if (status === 429) stats.limited += 1;
        else stats.ok += 1;
        arrivals.push({ at: now, window: windowIndex, status });
        await sleep(latency());
        return new Response(null, { status, headers });
      } finally {
        inFlight -= 1;
      }
    },
    setLimit(next) {
      limit = next;
    },
    failNext(n, retryAfter) {
      forced = n;
      forcedRetryAfter = retryAfter;
    },
    arrivals,
    get ok() {
      return stats.ok;
    },
    get limited() {
      return stats.limited;
    },
    perWindow,
    get maxInFlight() {
      return stats.maxInFlight;
    },
  };
}

/** Run `total` calls through `call`, at most `concurrency` at a time, as a transport's callers would. */
export async function runJob(total: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await call(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * The least time the server allows for `total` calls: the first request of the last window
 * cannot come before (windows - 1) full windows have passed, and the last window's calls then
 * need ceil(rest / concurrency) round trips.
 */
export function idealMs(
  total: number,
  limit: number,
  windowMs: number,
  concurrency: number,
  roundTripMs: number,
): number {
  const windows = Math.ceil(total / limit);
  const rest = total - (windows - 1) * limit;
  return (windows - 1) * windowMs + Math.ceil(rest / concurrency) * roundTripMs;
}

/** A fetch for PartnerClient's `fetch` option that answers every request from `server`. */
export function fakeFetch(server: Pick<FakeServer, 'request'>): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    return server.request();
  };
}
