/**
 * The per-key client-side rate limiter the transport wraps around every HTTP attempt.
 *
 * The reservoir follows the server's RateLimit headers: in one process through a small queue of
 * our own (local-queue.ts, budget-local.ts); across processes through the engine that
 * `options.shared` starts (shared.ts; Bottleneck's Redis datastore, budget-redis.ts, which only the
 * `@crp/partner-sdk/redis` entry imports). Both are created on the first `schedule`, never at
 * import or construction: Bottleneck starts timers in its constructor, which breaks edge runtimes
 * at global scope.
 */
import type { Logger } from '../logger.js';
import type { Budget, Counters, Engine, Observation, WaitForecast } from './budget.js';
import { LocalBudget, UNBOUNDED } from './budget-local.js';
import { LocalQueue } from './local-queue.js';
import { parseRateLimitHeaders, type RateLimitState } from './headers.js';
import { parseRetryAfter } from './retry-after.js';
import { startSharedBudget, type SharedBudget } from './shared.js';

export interface RateLimiter {
  /** Run task when the budget allows. Abort stops the wait at once (rejects with signal.reason). */
  schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Feed every response (any status) back: headers, status. A 429 with Retry-After pauses all sends until then. */
  observe(response: { status: number; headers: Headers }): void;
  /** Latest known limit/remaining/reset, or undefined before the first response. */
  readonly state: RateLimitState | undefined;
  /** Release timers and Redis connections so the process can exit. Idempotent. */
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /**
   * A fingerprint of the API key (never the key itself): the Bottleneck id, and with Redis the
   * key prefix that every process sharing this API key must use.
   */
  id: string;
  /**
   * Share the budget across processes, e.g. `redisBudget(redis)` from `@crp/partner-sdk/redis`.
   * @default undefined (the budget lives in this process)
   */
  shared?: SharedBudget;
  /** Where waits are reported (debug, or info when a wait lasts a second or more). */
  logger?: Logger;
  /** Clock in ms since the epoch. @default Date.now */
  now?: () => number;
}

/** Raised by `schedule` after `close()`. */
export class RateLimiterClosedError extends Error {
  override readonly name = 'RateLimiterClosedError';
  constructor() {
    super('rate limiter is closed');
  }
}

/** Waits shorter than this are not worth a log line. */
const LOG_WAIT_MS = 10;
const INFO_WAIT_MS = 1000;

interface Pending {
  cancelled: boolean;
  started: boolean;
  reject: (reason: unknown) => void;
}

/** Responses already fed in, so a response observed twice (by us and by the caller) counts once. */
type Seen = WeakSet<Headers>;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const clock = options.now ?? Date.now;
  const logger = options.logger;
  const counters: Counters = { started: 0, done: 0 };
  const seen: Seen = new WeakSet();
  /** Send times of requests in flight, and of the last one that finished. */
  const inFlight = new Set<{ sentAt: number }>();
  /**
   * Responses the caller fed in while requests were running. Held until a task settles: the task
   * that returns the same response gives its exact send time and still counts as running.
   */
  const deferred = new Map<Headers, { response: { status: number; headers: Headers }; now: number }>();
  let lastFinishedSentAt: number | undefined;
  const pending = new Set<Pending>();
  let queued = 0;
  let latest: RateLimitState | undefined;
  let engine: Promise<Engine> | undefined;
  /** The engine once it exists: calls then go to it in the same tick (no promise hop per call). */
  let ready: Engine | undefined;
  let budget: Budget | undefined;
  let closed = false;
  const bottleneckId = `crp-partner-sdk:${options.id}`;

  const onError = (error: unknown) => {
    logger?.warn?.('rate limiter: internal error', { limiter: options.id, error: describeError(error) });
  };

  function start(): Promise<Engine> {
    if (engine) return engine;
    if (options.shared === undefined) {
      const limiter = new LocalQueue({ maxConcurrent: 1, reservoir: UNBOUNDED });
      budget = new LocalBudget(limiter, counters, clock);
      ready = { limiter, budget };
      engine = Promise.resolve(ready);
    } else {
      engine = startSharedBudget(options.shared, { bottleneckId, clock, onError }).then((setup) => {
        budget = setup.budget;
        if (closed) void setup.budget.close().catch(onError);
        ready = setup;
        return setup;
      });
    }
    return engine;
  }

  function setQueued(delta: number): void {
    queued += delta;
    budget?.hold(queued > 0);
  }

  function record(response: { status: number; headers: Headers }, sentAt: number, selfInFlight: boolean, now: number): void {
    if (seen.has(response.headers)) return;
    seen.add(response.headers);
    const state = parseRateLimitHeaders(response.headers, now);
    const observation: Observation = { now, sentAt, selfInFlight };
    if (state) {
      observation.state = state;
      if (!latest || state.resetAt.getTime() >= latest.resetAt.getTime() - 1000) latest = state;
    }
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now);
      if (retryAfterMs !== undefined) {
        observation.retryAfterMs = retryAfterMs;
        logger?.info?.('rate limit: 429, pausing all requests', { limiter: options.id, retryAfterMs });
      }
    }
    if (observation.state || observation.retryAfterMs !== undefined) budget?.observe(observation);
  }

  function logWait(forecast: WaitForecast | undefined, queuedAt: number, waitedMs: number | undefined): void {
    if (!logger) return;
    if (waitedMs === undefined) {
      if (!forecast) return;
      const fields: Record<string, unknown> = { limiter: options.id, reason: forecast.reason };
      if (forecast.expectedMs !== undefined) fields.expectedWaitMs = Math.round(forecast.expectedMs);
      logger.debug?.('rate limit: request queued', fields);
      return;
    }
    if (waitedMs < LOG_WAIT_MS) return;
    const reason = budget?.explain(queuedAt) ?? forecast?.reason ?? 'queue';
    const level = waitedMs >= INFO_WAIT_MS ? logger.info : logger.debug;
    level?.call(logger, 'rate limit: request waited', { limiter: options.id, reason, waitedMs: Math.round(waitedMs) });
  }

  /** A response returned (or thrown) by a task, read while its request still counts as running. */
  function settle(response: { status: number; headers: Headers }, sentAt: number): void {
    const fed = deferred.get(response.headers);
    deferred.delete(response.headers);
    record(response, sentAt, true, fed?.now ?? clock());
  }

  async function run<T>(task: () => Promise<T>, entry: Pending, forecast: WaitForecast | undefined, queuedAt: number) {
    if (entry.cancelled) {
      // Bottleneck already took a place from the reservoir for this job; nothing was sent.
      budget?.refund();
      return undefined as T;
    }
    entry.started = true;
    pending.delete(entry);
    setQueued(-1);
    const now = clock();
    logWait(forecast, queuedAt, now - queuedAt);
    const flight = { sentAt: now };
    inFlight.add(flight);
    counters.started += 1;
    try {
      const result = await task();
      if (isResponseLike(result)) settle(result, flight.sentAt);
      return result;
    } catch (error) {
      const response = (error as { response?: unknown } | null)?.response;
      if (isResponseLike(response)) settle(response, flight.sentAt);
      throw error;
    } finally {
      if (deferred.size > 0) {
        // Fed in during some task we could not match: the earliest request still running (the
        // one it answers is among them) bounds its send time.
        let sentAt = flight.sentAt;
        for (const other of inFlight) sentAt = Math.min(sentAt, other.sentAt);
        for (const { response, now: at } of deferred.values()) record(response, sentAt, false, at);
        deferred.clear();
      }
      inFlight.delete(flight);
      lastFinishedSentAt = flight.sentAt;
      counters.done += 1;
    }
  }

  return {
    schedule<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (closed) return Promise.reject(new RateLimiterClosedError());
      if (signal?.aborted) return Promise.reject(signal.reason);
      const queuedAt = clock();
      return new Promise<T>((resolve, reject) => {
        const entry: Pending = { cancelled: false, started: false, reject };
        pending.add(entry);
        const ahead = queued;
        setQueued(1);
        const onAbort = () => {
          if (entry.started || entry.cancelled) return;
          entry.cancelled = true;
          pending.delete(entry);
          setQueued(-1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const settleWith = {
          value: (value: T) => {
            signal?.removeEventListener('abort', onAbort);
            if (!entry.cancelled) resolve(value);
          },
          error: (error: unknown) => {
            signal?.removeEventListener('abort', onAbort);
            if (!entry.cancelled) {
              if (!entry.started) {
                entry.cancelled = true;
                pending.delete(entry);
                setQueued(-1);
              }
              reject(error);
            }
          },
        };
        const enqueue = ({ limiter }: Engine) => {
          const forecast = budget?.forecast(clock(), ahead);
          logWait(forecast, queuedAt, undefined);
          budget?.hold(queued > 0);
          limiter.schedule(() => run(task, entry, forecast, queuedAt)).then(settleWith.value, settleWith.error);
        };
        // start() makes a local engine at once (so `ready` is set here); a shared one arrives later.
        const starting = start();
        if (ready) enqueue(ready);
        else starting.then(enqueue).catch(settleWith.error);
      });
    },

    observe(response: { status: number; headers: Headers }): void {
      if (closed || seen.has(response.headers)) return;
      const now = clock();
      if (inFlight.size > 0) deferred.set(response.headers, { response, now });
      else record(response, lastFinishedSentAt ?? now, false, now);
    },

    get state(): RateLimitState | undefined {
      return latest;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const entry of pending) {
        entry.cancelled = true;
        entry.reject(new RateLimiterClosedError());
      }
      pending.clear();
      queued = 0;
      if (!engine) return;
      const started = await engine.catch(onError);
      if (!started) return;
      await started.budget.close();
      // A shared budget's close() disconnected its limiter and connection.
      if (options.shared === undefined) await started.limiter.disconnect(false);
    },
  };
}

function isResponseLike(value: unknown): value is { status: number; headers: Headers } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { status?: unknown }).status === 'number' &&
    (value as { headers?: unknown }).headers instanceof Headers
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
