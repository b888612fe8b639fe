/**
 * A watcher's checkpoint in Redis, locked by a lease: one holder at a time across hosts, renewed
 * while it runs, free `leaseMs` after its holder died. Fencing keeps a holder that lost the lease
 * from writing: every acquisition raises `fence` and names a random holder id, every save carries
 * both, and a Lua script refuses a save whose fence and id are no longer the lease's
 * (lease-scripts.ts), also after Redis lost the lease record and counts fences from 1 again.
 *
 * The holder delivers only while its lease is confirmed by its own monotonic clock: renewed less
 * than `leaseMs` minus a margin ago, counted from when the renewal was sent (so Redis, which counts
 * from when it received it, always expires the lease later than the holder stops trusting it).
 * While Redis does not answer, saves and confirmations wait and retry (nothing is delivered, nothing
 * is lost) until Redis answers again or the watcher stops. A key holding another type than ours
 * (WRONGTYPE: another program's data) is no outage: it ends the watcher with a ConfigurationError.
 */
import type { Redis as IORedis } from 'ioredis';
import { CheckpointLockedError, ConfigurationError, type Logger } from '../index.js';
import { realClock } from '../core/clock.js';
// Types only (erased from the build): the Checkpoint this file implements is the events entry's.
import type { Checkpoint, LockOptions, LockStatus, SaveOptions } from '../events/index.js';
import { ACQUIRE, KEY_TYPES, RELEASE, RENEW, SAVE } from './lease-scripts.js';
import { loadPackage, ownConnection, within, type RedisLike, type RedisOptionsLike } from './sharing.js';

/** Options of `redisCheckpoint()`. */
export interface RedisCheckpointOptions {
  /** An ioredis client (duplicated, never closed by the SDK), ioredis options, or a `redis://` / `rediss://` URL. */
  redis: RedisLike | RedisOptionsLike;
  /** The checkpoint's name in Redis: its keys are `<key>:records`, `<key>:lease` and `<key>:meta`. */
  key: string;
  /**
   * How long the lease outlives its holder's last renewal, in milliseconds: the longest a standby
   * waits after the holder died. The holder renews every third of it.
   * @default 15_000
   */
  leaseMs?: number;
  /** Where outages of Redis are reported (a warning when it stops answering, info when it is back). @default lines on stderr */
  logger?: Logger;
}

/** Commands our scripts become on the connection (EVALSHA, re-sent as EVAL after a Redis restart). */
interface Scripted extends IORedis {
  crpAcquire(lease: string, meta: string, id: string, ms: number): Promise<[0, string, number] | [1, string, 0 | 1]>;
  crpRenew(lease: string, meta: string, id: string, fence: string, ms: number): Promise<0 | 1>;
  crpSave(
    meta: string,
    records: string,
    fence: string,
    id: string,
    seq: number,
    replace: '0' | '1',
    record: string,
  ): Promise<0 | 1>;
  crpRelease(lease: string, meta: string, id: string): Promise<0 | 1>;
}

interface Held {
  connection: Scripted;
  /** The holder's id in the lease key and record: random for each acquisition (never repeats), with the process id for the messages of those refused. */
  id: string;
  fence: string;
  signal: AbortSignal | undefined;
  onStatus: ((status: LockStatus) => void) | undefined;
  /** Number of the last save sent: a retried save keeps its number, so Redis applies it once. */
  seq: number;
  /** Until when (performance.now()) the lease is trusted without asking Redis. */
  validUntil: number;
  /**
   * Before when (performance.now()) nothing is delivered: the end of the lease the holder before
   * was last seen with, when that lease vanished from Redis early (FLUSHALL, a lost key) rather
   * than being released or expiring, so that holder may still trust it.
   */
  notBefore: number;
  status: LockStatus;
  /** The status an outage ends in: `standby` while waiting for the lease, `held` once taken. */
  between: LockStatus;
  /** A failure no retry mends (a key of another type): every later call throws it. */
  fatal?: Error;
  timer: ReturnType<typeof setInterval>;
}

const now = (): number => performance.now();

export class RedisCheckpoint implements Checkpoint {
  readonly #options: RedisCheckpointOptions;
  readonly #leaseMs: number;
  readonly #keys: { lease: string; meta: string; records: string };
  readonly #logger: Logger;
  #held: Held | undefined;
  /** Round trips to Redis so far (for the benchmark: per delivered event). */
  roundTrips = 0;

  constructor(options: RedisCheckpointOptions) {
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#keys = { lease: `${options.key}:lease`, meta: `${options.key}:meta`, records: `${options.key}:records` };
    this.#logger = options.logger ?? stderrLogger;
  }

  /** How long a Redis command may take before it counts as failed, and the wait between retries. */
  get #timeoutMs(): number {
    return Math.max(50, Math.min(2_000, this.#leaseMs / 3));
  }

  async load(): Promise<string[]> {
    const held = this.#require('load');
    return this.#retry(held, () => held.connection.lrange(this.#keys.records, 0, -1));
  }

  async save(record: string, { replace = false }: SaveOptions = {}): Promise<void> {
    const held = this.#require('save');
    const seq = ++held.seq;
    const saved = await this.#retry(held, () =>
      held.connection.crpSave(
        this.#keys.meta,
        this.#keys.records,
        held.fence,
        held.id,
        seq,
        replace ? '1' : '0',
        record,
      ),
    );
    if (saved !== 1) throw this.#lost(held);
  }

  async lock({ wait = false, signal, onStatus, check }: LockOptions = {}): Promise<() => Promise<void>> {
    while (this.#held) {
      if (!wait)
        throw new CheckpointLockedError(
          `This redisCheckpoint() (key ${this.#options.key}) is in use by another watcher in this process. ` +
            `Stop that watcher first, or give each watcher its own checkpoint.`,
        );
      await realClock.sleep(this.#pollMs, signal);
    }
    const connection = await this.#connect();
    const id = `${globalThis.crypto.randomUUID()} pid ${processId() ?? '?'}`;
    const waiting: LockStatus = wait ? 'standby' : 'held';
    const pending: Held = {
      connection,
      id,
      fence: '',
      signal,
      onStatus,
      seq: 0,
      validUntil: 0,
      notBefore: 0,
      status: waiting,
      between: waiting,
      timer: undefined as never,
    };
    // Until a snapshot settles whose checkpoint this is, a standby looks at it on each poll.
    let checked = !wait || !check;
    /** When the lease last seen held would end, at the latest. */
    let seenUntil = 0;
    try {
      for (;;) {
        const sent = now();
        const answer = await this.#retry(pending, () =>
          connection.crpAcquire(this.#keys.lease, this.#keys.meta, id, this.#leaseMs),
        );
        if (answer[0] === 1) {
          pending.fence = answer[1];
          pending.validUntil = sent + this.#trustMs;
          if (answer[2] === 0) pending.notBefore = seenUntil;
          break;
        }
        seenUntil = now() + Math.max(0, answer[2]);
        if (!wait) {
          throw new CheckpointLockedError(
            `The checkpoint ${this.#options.key} in Redis is in use by another watcher (${answer[1]}; its lease runs ${answer[2]} ms more unless renewed). ` +
              'Two watchers on one checkpoint would deliver every event twice: stop the other one, run this ' +
              'one with standby: true to take over when the other stops, or give it its own key.',
          );
        }
        if (!checked) {
          const first = await this.#retry(pending, () => connection.lindex(this.#keys.records, 0));
          checked = first !== null && (await check!(first));
        }
        // Look again when the lease would expire, and at least every poll interval (a holder that stopped frees it at once).
        await realClock.sleep(Math.max(1, Math.min(answer[2] + 1, this.#pollMs)), signal);
      }
    } catch (error) {
      connection.disconnect();
      throw error;
    }
    const held: Held = {
      ...pending,
      status: 'held',
      between: 'held',
      timer: setInterval(() => void this.#renew(held), this.#leaseMs / 3),
    };
    (held.timer as { unref?: () => void }).unref?.();
    this.#held = held;
    return () => this.#release(held);
  }

  async confirm(signal: AbortSignal): Promise<void> {
    const held = this.#require('confirm');
    if (now() < held.notBefore) await realClock.sleep(held.notBefore - now(), signal);
    while (held.status !== 'lost' && now() >= held.validUntil) {
      await this.#renew(held);
      if (held.status === 'unreachable') await realClock.sleep(this.#timeoutMs, signal);
    }
    if (held.fatal) throw held.fatal;
    if (held.status === 'lost') throw this.#lost(held);
  }

  /** How long after sending a renewal the holder trusts it: the lease less a margin for timer and clock slack. */
  get #trustMs(): number {
    return this.#leaseMs - Math.max(10, this.#leaseMs / 10);
  }

  /** How often a standby asks whether the lease is free. */
  get #pollMs(): number {
    return Math.max(20, Math.min(1_000, this.#leaseMs / 10));
  }

  async #renew(held: Held): Promise<void> {
    if (held.status === 'lost') return;
    const sent = now();
    let renewed: 0 | 1;
    try {
      this.roundTrips++;
      renewed = await held.connection.crpRenew(this.#keys.lease, this.#keys.meta, held.id, held.fence, this.#leaseMs);
    } catch (error) {
      if (isWrongType(error)) {
        held.fatal = await this.#wrongType(held, error);
        this.#setStatus(held, 'lost');
        clearInterval(held.timer);
      } else this.#unreachable(held, error);
      return;
    }
    if (renewed === 1) {
      held.validUntil = Math.max(held.validUntil, sent + this.#trustMs);
      this.#reachable(held);
    } else {
      this.#setStatus(held, 'lost');
      clearInterval(held.timer);
    }
  }

  /** Runs `command` until Redis answers, waiting between tries; rejects when the watcher stops. */
  async #retry<T>(held: Held, command: () => Promise<T>): Promise<T> {
    for (;;) {
      held.signal?.throwIfAborted();
      try {
        this.roundTrips++;
        // A command can sit in ioredis's queue while it reconnects: a stop must not wait for it.
        const answer = await untilAborted(command(), held.signal);
        this.#reachable(held);
        return answer;
      } catch (error) {
        if (isAbort(error, held.signal)) throw error;
        if (held.fatal) throw held.fatal;
        if (isWrongType(error)) throw (held.fatal = await this.#wrongType(held, error));
        this.#unreachable(held, error);
      }
      await realClock.sleep(this.#timeoutMs, held.signal);
    }
  }

  #reachable(held: Held): void {
    if (held.status !== 'unreachable') return;
    this.#setStatus(held, held.between);
    this.#logger.info?.(
      `partner-sdk: event checkpoint: Redis answers again; the watcher goes on (key ${this.#options.key})`,
    );
  }

  #unreachable(held: Held, error: unknown): void {
    if (held.status === 'unreachable' || held.status === 'lost') return;
    this.#setStatus(held, 'unreachable');
    this.#logger.warn?.(
      `partner-sdk: event checkpoint: Redis does not answer; the watcher delivers nothing until it does, ` +
        `then goes on from the checkpoint if its lease is still its own (key ${this.#options.key})`,
      { error: error instanceof Error ? error.message : String(error) },
    );
  }

  #setStatus(held: Held, status: LockStatus): void {
    if (held.status === status || held.status === 'lost') return;
    held.status = status;
    held.onStatus?.(status);
  }

  /**
   * The error for a key that holds another type than a checkpoint's (another program's data), naming
   * each such key and what it holds.
   */
  async #wrongType(held: Held, error: unknown): Promise<ConfigurationError> {
    const names = Object.keys(KEY_TYPES) as Array<keyof typeof KEY_TYPES>;
    const types = await within(
      this.#timeoutMs,
      Promise.all(names.map((name) => held.connection.type(this.#keys[name]))),
    ).catch(() => undefined);
    const wrong = names.flatMap((name, i) => {
      const type = types?.[i];
      return type !== undefined && type !== 'none' && type !== KEY_TYPES[name]
        ? [`${this.#keys[name]} holds a ${type}, not a ${KEY_TYPES[name]}`]
        : [];
    });
    return new ConfigurationError(
      `The checkpoint's keys in Redis hold another program's data: ` +
        `${wrong.length > 0 ? wrong.join('; ') : `a key under ${this.#options.key} holds another type than a checkpoint's`}. ` +
        `The watcher stopped without writing there. Give redisCheckpoint() a key of its own (it uses ` +
        `${names.map((name) => this.#keys[name]).join(', ')}), or remove those keys if they are left over.`,
      { cause: error },
    );
  }

  #lost(held: Held): CheckpointLockedError {
    this.#setStatus(held, 'lost');
    return new CheckpointLockedError(
      `This watcher lost its lease on the checkpoint ${this.#options.key} in Redis (it could not renew it ` +
        `for ${this.#leaseMs} ms: the process was paused or cut off from Redis) and another watcher took over, ` +
        'or Redis lost the lease record (FLUSHALL, a restart without persistence, a deleted key). It stopped ' +
        'so as not to deliver beside the new holder; start it again (as a standby) if it should stay a ' +
        'replica.',
    );
  }

  async #release(held: Held): Promise<void> {
    if (this.#held !== held) return;
    this.#held = undefined;
    clearInterval(held.timer);
    // Best effort and bounded: a dead Redis must not hold the watcher's stop up; the lease then
    // expires on its own.
    // A holder stopped by a key of another type still frees its lease, so standbys are not held up.
    if (held.status !== 'lost' || held.fatal)
      await within(this.#timeoutMs, held.connection.crpRelease(this.#keys.lease, this.#keys.meta, held.id)).catch(
        () => undefined,
      );
    held.connection.disconnect();
  }

  #require(what: string): Held {
    if (!this.#held) {
      throw new ConfigurationError(
        `redisCheckpoint().${what}() works while its lock is held: pass the checkpoint to watchEvents(), which takes the lock first.`,
      );
    }
    return this.#held;
  }

  async #connect(): Promise<Scripted> {
    const ioredis = await loadPackage<typeof import('ioredis')>('ioredis', undefined, 'redisCheckpoint()');
    const connection = ownConnection(this.#options.redis, ioredis.Redis, {
      connectTimeout: this.#timeoutMs,
      commandTimeout: this.#timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 100, 500),
    }) as Scripted;
    // Reconnect errors repeat while Redis is down; the commands' own failures report the outage.
    connection.on('error', () => undefined);
    connection.defineCommand('crpAcquire', { numberOfKeys: 2, lua: ACQUIRE });
    connection.defineCommand('crpRenew', { numberOfKeys: 2, lua: RENEW });
    connection.defineCommand('crpSave', { numberOfKeys: 2, lua: SAVE });
    connection.defineCommand('crpRelease', { numberOfKeys: 2, lua: RELEASE });
    return connection;
  }
}

/** Not stdout: `crp events tail` writes its events there. */
const stderrLogger: Logger = {
  warn: (message, fields) => console.warn(fields ? `${message} ${JSON.stringify(fields)}` : message),
  info: (message) => console.warn(message),
};

function processId(): number | undefined {
  return (globalThis as { process?: { pid?: number } }).process?.pid;
}

function isWrongType(error: unknown): boolean {
  return error instanceof Error && /\bWRONGTYPE\b/.test(error.message);
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error === signal.reason;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
