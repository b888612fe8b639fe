/**
 * Sharing a key's budget through Redis, with Bottleneck's public clustering API: a limiter per key
 * id on an ioredis connection, `publish()` and its `message` event. Over that channel each process
 * says it is there (so each knows how many share the key) and passes on every Retry-After it
 * receives (so a pause reaches every process). The budget itself stays in each process's gate,
 * which derives the server's window from its headers and takes its part of what the server
 * reports left.
 *
 * When Redis is unreachable (at start or mid-run), nothing waits on it for longer than
 * `timeoutMs`: the gate goes on assuming the last known number of sharers, one warning is logged,
 * and the process rejoins when a heartbeat gets through again.
 */
import type Bottleneck from 'bottleneck';
import type { Redis as IORedis, RedisOptions } from 'ioredis';
import { ConfigurationError } from '../index.js';
import type { Sharing } from '../core/rate-limit/gate.js';
import { cleanText } from '../core/sanitize.js';
import { realClock } from '../core/clock.js';
import type { SharedBudgetContext } from '../core/rate-limit/shared.js';

/** An ioredis client (`new Redis(...)`). Structural, so our types do not require ioredis. */
export interface RedisLike {
  duplicate(...args: never[]): unknown;
  readonly status: string;
}

/** ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), or a `redis://` URL. */
export type RedisOptionsLike = string | { [option: string]: unknown; host?: string; port?: number };

/** Options of `redisBudget()`. */
export interface RedisBudgetOptions {
  /**
   * How many processes to assume share the key while Redis has never answered (unreachable from
   * the start). Once it has, the last count it gave is assumed instead.
   * @default 2
   */
  assumeSharers?: number;
  /** Longest wait for Redis to connect or answer, in milliseconds. @default 2_000 */
  timeoutMs?: number;
}

/** How often each process says it is there; a process not heard from for 3 beats has gone. */
const BEAT_MS = 1000;
/** After connecting, how long to listen for the other processes before the first send. */
const SETTLE_MS = 250;
const PREFIX = 'crp1';

interface Parts {
  limiter: Bottleneck;
  connection: Bottleneck.IORedisConnection;
  client: IORedis;
}

export class RedisSharing implements Sharing {
  readonly #self = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  readonly #peers = new Map<string, number>();
  readonly #context: SharedBudgetContext;
  readonly #timeoutMs: number;
  readonly #assume: number;
  readonly #parts: Promise<Parts | undefined>;
  readonly #beat: ReturnType<typeof setInterval>;
  #online = false;
  /** Heartbeats in a row that got through since the last failure. */
  #goodBeats = 0;
  #lastKnown: number | undefined;
  #warned = false;
  #closed = false;
  /** Resolves once the other processes had a chance to answer, or Redis is given up on for now. */
  readonly ready: Promise<void>;

  constructor(redis: RedisLike | RedisOptionsLike, options: RedisBudgetOptions, context: SharedBudgetContext) {
    this.#context = context;
    this.#timeoutMs = options.timeoutMs ?? 2_000;
    this.#assume = options.assumeSharers ?? 2;
    this.#parts = connect(redis, this.#timeoutMs, context.id).then(
      (parts) => {
        parts.limiter.on('message', (message: string) => this.#receive(message));
        // Errors repeat on every reconnect attempt of either connection, even after the other is
        // back: the heartbeats alone decide what is down.
        parts.limiter.on('error', () => undefined);
        parts.connection.on('error', () => undefined);
        if (this.#closed) void shutdown(parts);
        return parts;
      },
      (error: unknown) => {
        this.#offline(error);
        return undefined;
      },
    );
    this.#beat = setInterval(() => void this.#hello(), BEAT_MS);
    (this.#beat as { unref?: () => void }).unref?.();
    this.ready = this.#hello().then((ok) => (ok ? realClock.sleep(SETTLE_MS) : undefined));
  }

  sharers(): number {
    if (!this.#online) return this.#lastKnown ?? this.#assume;
    const now = Date.now();
    // Gone after 3 beats missed, counted from when a beat of ours would have noticed an outage.
    for (const [peer, seenAt] of this.#peers)
      if (now - seenAt > 3 * BEAT_MS + this.#timeoutMs) this.#peers.delete(peer);
    const counted = this.#peers.size + 1;
    // Just back: the others' hellos may not all have arrived yet, so do not count fewer than before.
    this.#lastKnown = this.#goodBeats < 3 ? Math.max(counted, this.#lastKnown ?? 1) : counted;
    return this.#lastKnown;
  }

  announcePause(ms: number): void {
    void this.#publish('pause', String(Math.ceil(ms)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#beat);
    const parts = await within(500, this.#parts).catch(() => undefined);
    if (!parts) return;
    // Best effort: the others stop counting us at once instead of after 3 beats.
    await within(300, parts.limiter.publish(`${PREFIX} bye ${this.#self}`)).catch(() => undefined);
    await shutdown(parts);
  }

  /** Say we are here, with the budget we last saw (limit,remaining,ms to reset), so a newcomer need not probe. */
  #hello(): Promise<boolean> {
    const state = this.#context.budget();
    const value = state
      ? `${state.limit},${state.remaining},${Math.max(0, state.resetAt.getTime() - this.#context.now())}`
      : '';
    return this.#publish('hello', value);
  }

  /** Publish on the key's channel; false (and offline) when Redis does not take it within the timeout. */
  async #publish(kind: 'hello' | 'pause', value: string): Promise<boolean> {
    if (this.#closed) return false;
    try {
      const parts = await within(this.#timeoutMs, this.#parts);
      if (!parts) return false;
      await within(this.#timeoutMs, parts.limiter.publish(`${PREFIX} ${kind} ${this.#self} ${value}`));
    } catch (error) {
      this.#offline(error);
      return false;
    }
    this.#goodBeats += 1;
    this.#online = true;
    // An outage ends after 3 good beats in a row: a flapping connection gives one warning, not many.
    if (this.#warned && this.#goodBeats >= 3 && !this.#closed) {
      this.#warned = false;
      this.#context.logger.info?.('partner-sdk: shared rate budget: Redis is back, sharing the budget again', {
        budget: this.#context.id,
      });
    }
    return true;
  }

  #receive(message: string): void {
    const [prefix, kind, peer, value] = message.split(' ');
    if (prefix !== PREFIX || !peer || peer === this.#self) return;
    if (kind === 'bye') {
      this.#peers.delete(peer);
      return;
    }
    const isNew = !this.#peers.has(peer);
    this.#peers.set(peer, Date.now());
    // A newcomer missed our last hello: answer at once so it counts us before its first send.
    if (isNew && kind === 'hello') void this.#hello();
    if (kind === 'hello' && value) {
      const [limit, remaining, resetMs] = value.split(',').map(Number) as [number, number, number];
      if ([limit, remaining, resetMs].every((n) => Number.isSafeInteger(n) && n >= 0) && resetMs <= 86_400_000) {
        this.#context.onBudget({ limit, remaining, resetAt: new Date(this.#context.now() + resetMs) });
      }
    }
    const ms = Number(value);
    if (kind === 'pause' && Number.isFinite(ms) && ms > 0) this.#context.onPause(ms);
  }

  #offline(error: unknown): void {
    if (this.#closed) return;
    if (this.#online) this.#lastKnown = this.sharers();
    this.#online = false;
    this.#goodBeats = 0;
    if (this.#warned) return;
    this.#warned = true;
    this.#context.logger.warn?.(
      `partner-sdk: shared rate budget: Redis is unreachable; going on with a local budget for ${this.#lastKnown ?? this.#assume} processes until it is back`,
      { budget: this.#context.id, error: error instanceof Error ? error.message : String(error) },
    );
  }
}

async function connect(redis: RedisLike | RedisOptionsLike, timeoutMs: number, id: string): Promise<Parts> {
  const [{ default: BottleneckFull }, ioredis] = await Promise.all([
    loadPackage<typeof import('bottleneck')>('bottleneck'),
    loadPackage<typeof import('ioredis')>('ioredis'),
  ]);
  const Redis = ioredis.Redis;
  // Bounded waits on a connection of our own: a caller's client is duplicated, never quit by us.
  const bounded: RedisOptions = {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => Math.min(times * 200, 1000),
  };
  const client = ownConnection(redis, Redis, bounded);
  // ESM has no `require` for Bottleneck to find ioredis with: hand it the constructor.
  const connection = new BottleneckFull.IORedisConnection({ client, Redis });
  const limiter = new BottleneckFull({ id, datastore: 'ioredis', connection });
  // Bottleneck's start-up promise rejects when Redis does not answer; our heartbeats report that,
  // and an unhandled rejection would end the process.
  limiter.ready().catch(() => undefined);
  return { limiter, connection, client };
}

async function shutdown(parts: Parts): Promise<void> {
  // The connection, not the limiter: on a connection we made, limiter.disconnect() unsubscribes
  // without awaiting (an unhandled rejection when Redis is down), while connection.disconnect()
  // stops every limiter's heartbeat and closes both clients (Bottleneck's duplicated subscriber
  // too) without flushing, so a dead Redis cannot hold close() up.
  await within(500, parts.connection.disconnect(false)).catch(() => undefined);
  parts.client.disconnect();
}

/** A connection of the SDK's own, with `bounded` options: a caller's client is duplicated, never used or quit. */
export function ownConnection(
  redis: RedisLike | RedisOptionsLike,
  Redis: typeof IORedis,
  bounded: RedisOptions,
): IORedis {
  return isRedisClient(redis)
    ? (redis.duplicate(bounded as never) as IORedis)
    : typeof redis === 'string'
      ? new Redis(redis, bounded)
      : new Redis({ ...(redis as RedisOptions), ...bounded });
}

export function isRedisClient(value: unknown): value is RedisLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RedisLike).duplicate === 'function' &&
    typeof (value as RedisLike).status === 'string'
  );
}

export function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A package redisBudget() (or `who`) loads on first use. A refusal says whether it is missing (install it) or
 * installed but failing to load (a broken install, a wrong version, a missing dependency of its
 * own), and keeps the loader's error as `cause`.
 */
export async function loadPackage<T>(
  name: string,
  load: (specifier: string) => Promise<T> = loadAtRunTime,
  who = 'redisBudget()',
): Promise<T> {
  try {
    return await load(name);
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(error);
    // Only the package itself not found means "missing": one of its own files or dependencies not
    // found is a broken install.
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && new RegExp(`['"]${name}['"]`).test(text);
    throw new ConfigurationError(
      missing
        ? `${who} needs the package ${name}, which is not installed: npm install ${name}`
        : `${who} needs the package ${name}, which is installed but failed to load (${cleanText(text, undefined, 200)}); ` +
            `reinstall it (npm install ${name}) and check its version. The loader's error is the cause.`,
      { cause: error },
    );
  }
}

/**
 * `import()` of a name bundlers cannot see. As literal imports, bundlers would put full Bottleneck
 * and ioredis (~180 kB minified) into every application that imports `@crp/partner-sdk/redis`,
 * and would fail where the optional ioredis is not installed.
 */
function loadAtRunTime<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
