/**
 * What the in-process Redis checkpoint tests share: whether redis-server is there (a warning when
 * it is not), a logger that drops the checkpoint's outage lines, the watcher's waits that keep a
 * simulated day to a second, and a real-time sleep.
 */
import type { Checkpoint } from '../../src/events/index.js';
import { REDIS_SKIP_MESSAGE, redisServerAvailable } from '../helpers/redis-server.js';

export function redisAvailable(): boolean {
  const available = redisServerAvailable();
  if (!available) console.warn(REDIS_SKIP_MESSAGE);
  return available;
}

export const quiet = { warn: () => undefined, info: () => undefined };
export const HOUR = 3_600_000;
export const WATCH = { minInterval: HOUR, maxInterval: 4 * HOUR, maxLag: 24 * HOUR };
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same checkpoint with `lock` in place of its own (which `lock` calls), to note acquisitions or statuses. */
export function withLock(inner: Checkpoint, lock: NonNullable<Checkpoint['lock']>): Checkpoint {
  return {
    load: () => inner.load(),
    save: (record, options) => inner.save(record, options),
    confirm: (signal) => inner.confirm!(signal),
    lock,
  };
}
