/**
 * The shared budget: full Bottleneck on an ioredis connection. Only the `@crp/partner-sdk/redis`
 * entry (src/redis/index.ts) imports this module, and Bottleneck and ioredis (an optional peer
 * dependency) load on the limiter's first call. The rules themselves run in Redis
 * (redis-scripts.ts) so every process sees one window.
 */
import type Bottleneck from 'bottleneck';
import type { Redis as IORedis, RedisOptions } from 'ioredis';
import { Alarm } from './alarm.js';
import type { Budget, Observation, WaitForecast } from './budget.js';
import { boundsOf } from './window.js';
import { OBSERVE_SCRIPT, REFRESH_SCRIPT } from './redis-scripts.js';

/** An ioredis client (`new Redis(...)`). Structural, so our types do not require ioredis. */
export interface RedisLike {
  duplicate(...args: never[]): unknown;
  readonly status: string;
}

/** ioredis options (`host`, `port`, `password`, `db`, `tls`, ...), or a `redis://` URL. */
export type RedisOptionsLike = string | { [option: string]: unknown; host?: string; port?: number };

/** Bottleneck refreshes cluster state on this beat; its 5 s default makes refills late. */
const HEARTBEAT_MS = 250;
/** While calls wait, ask Redis this often whether a refill is due (another process may owe it). */
const POLL_MS = 250;

type ScriptCommand = (settingsKey: string, windowKey: string, ...args: (string | number)[]) => Promise<number[]>;

export interface RedisBudgetSetup {
  limiter: Bottleneck;
  budget: Budget;
}

export async function createRedisBudget(options: {
  bottleneckId: string;
  redis: RedisLike | RedisOptionsLike;
  clock: () => number;
  onError: (error: unknown) => void;
  /** The error to fail with when ioredis cannot be loaded (the caller's ConfigurationError). */
  ioredisMissing: (message: string) => Error;
}): Promise<RedisBudgetSetup> {
  const [{ default: BottleneckFull }, ioredis] = await Promise.all([
    loadAtRunTime<typeof import('bottleneck')>('bottleneck'),
    loadAtRunTime<typeof import('ioredis')>('ioredis').catch(() => {
      throw options.ioredisMissing('redisBudget() needs the optional peer dependency ioredis, which is not installed: npm install ioredis.');
    }),
  ]);
  const Redis = ioredis.Redis;
  // Our own connection: a caller's client is duplicated, never quit by us.
  const client: IORedis = isRedisClient(options.redis)
    ? (options.redis.duplicate() as IORedis)
    : typeof options.redis === 'string'
      ? new Redis(options.redis)
      : new Redis(options.redis as RedisOptions);
  client.defineCommand('crpRateObserve', { numberOfKeys: 2, lua: OBSERVE_SCRIPT });
  client.defineCommand('crpRateRefresh', { numberOfKeys: 2, lua: REFRESH_SCRIPT });
  // ESM has no `require` for Bottleneck to find ioredis with: hand it the constructor.
  const connection = new BottleneckFull.IORedisConnection({ client, Redis });
  connection.on('error', options.onError);
  const limiter = new BottleneckFull({
    id: options.bottleneckId,
    connection,
    maxConcurrent: 1,
    reservoir: null,
    heartbeatInterval: HEARTBEAT_MS,
  });
  limiter.on('error', options.onError);
  const budget = new RedisBudget(limiter, connection, client, options.bottleneckId, options.clock, options.onError);
  await limiter.ready();
  await budget.refresh();
  return { limiter, budget };
}

export function isRedisClient(value: unknown): value is RedisLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RedisLike).duplicate === 'function' &&
    typeof (value as RedisLike).status === 'string'
  );
}

class RedisBudget implements Budget {
  private readonly keys: [string, string];
  private readonly alarm: Alarm;
  private poll: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Last figures Redis returned, for wait forecasts only. */
  private reservoir: number | undefined;
  private refillAt: number | undefined;
  private lastExhaustedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly limiter: Bottleneck,
    private readonly connection: Bottleneck.IORedisConnection,
    private readonly client: IORedis,
    bottleneckId: string,
    private readonly clock: () => number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.keys = [`b_${bottleneckId}_settings`, `b_${bottleneckId}_crp_window`];
    this.alarm = new Alarm(() => void this.refresh(), clock);
  }

  observe(o: Observation): void {
    const args: (string | number)[] = o.state
      ? (() => {
          const { lo, hi } = boundsOf(o.state.resetAt.getTime(), o.now, o.sentAt);
          return [1, o.state.remaining, o.state.limit, Math.floor(lo - o.now), Math.ceil(hi - o.now)];
        })()
      : [0, 0, 0, 0, 0];
    args.push(Math.floor(o.sentAt - o.now), o.selfInFlight ? 1 : 0, o.retryAfterMs ?? -1);
    this.run('crpRateObserve', args).catch(this.onError);
  }

  refund(): void {
    // The refund must not survive a refill that already counted the job as running; the refill
    // happens after the job is freed, so incrementing now is at worst one place too cautious.
    this.limiter.incrementReservoir(1).catch(this.onError);
  }

  forecast(now: number, ahead: number): WaitForecast | undefined {
    if (this.reservoir === undefined) return undefined;
    if (this.reservoir - ahead > 0) return undefined;
    const forecast: WaitForecast = { reason: 'budget' };
    if (this.refillAt !== undefined && this.refillAt > now) forecast.expectedMs = this.refillAt - now;
    return forecast;
  }

  explain(queuedAt: number): WaitForecast['reason'] | undefined {
    return this.lastExhaustedAt >= queuedAt ? 'budget' : undefined;
  }

  hold(waiting: boolean): void {
    this.alarm.hold(waiting);
    if (waiting && this.poll === undefined && !this.closed) {
      this.poll = setInterval(() => void this.refresh(), POLL_MS);
    } else if (!waiting && this.poll !== undefined) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
  }

  async refresh(): Promise<void> {
    if (this.closed) return;
    await this.run('crpRateRefresh', []).catch(this.onError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.alarm.clear();
    if (this.poll !== undefined) clearInterval(this.poll);
    this.poll = undefined;
    try {
      await this.limiter.disconnect(true);
    } finally {
      // Also the connection: Bottleneck leaves its duplicated subscriber open otherwise.
      await this.connection.disconnect(true);
    }
  }

  private async run(name: 'crpRateObserve' | 'crpRateRefresh', args: (string | number)[]): Promise<void> {
    if (this.closed) return;
    const command = (this.client as unknown as Record<string, ScriptCommand>)[name];
    if (!command) throw new Error(`rate limiter: Redis script ${name} is not defined`);
    const [untilMs = -1, reservoir = -1] = await command.call(this.client, ...this.keys, ...args);
    if (this.closed) return;
    this.reservoir = reservoir < 0 ? undefined : reservoir;
    if (this.reservoir !== undefined && this.reservoir <= 0) this.lastExhaustedAt = this.clock();
    if (untilMs >= 0) {
      this.refillAt = this.clock() + untilMs;
      // A little after Redis's moment, so the refill is due when we ask.
      if (untilMs > 0) this.alarm.set(this.refillAt + 2);
    } else {
      this.refillAt = undefined;
      this.alarm.clear();
    }
  }
}

/**
 * `import()` of a name bundlers cannot see. As literal imports, esbuild, webpack and Rollup would
 * put full Bottleneck (with its Redis scripts) and ioredis (~180 kB minified) into the bundle of
 * every application that imports `@crp/partner-sdk/redis`, and would fail where the optional
 * ioredis is not installed. They load from node_modules on the limiter's first call instead.
 */
function loadAtRunTime<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
