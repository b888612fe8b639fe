import { ConfigurationError } from '../index.js';
import type { WatchOptions } from './types.js';

/** The watcher's waits, in milliseconds. */
export interface Intervals {
  maxLag: number;
  minInterval: number;
  maxInterval: number;
}
const DEFAULT_INTERVALS: Intervals = { maxLag: 900_000, minInterval: 10_000, maxInterval: 60_000 };
/** The order the durations must keep: each at most the next. */
const ORDER = ['minInterval', 'maxInterval', 'maxLag'] as const;

/**
 * `minInterval <= maxInterval <= maxLag`, with the values left out derived from those given (a
 * `maxLag` of 3 s gets intervals within it; a `minInterval` above the default `maxInterval` lifts
 * it), so only a contradiction between values the caller wrote is refused, naming those values.
 */
export function intervalsOf(o: Pick<WatchOptions, 'maxLag' | 'minInterval' | 'maxInterval'>): Intervals {
  const given: Partial<Intervals> = {};
  for (const name of ORDER) {
    const value = o[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new ConfigurationError(
        `The option ${name} must be a positive number of milliseconds; got ${String(value)}.`,
      );
    }
    given[name] = value;
  }
  const clashes = new Set<string>();
  ORDER.forEach((low, i) => {
    for (const high of ORDER.slice(i + 1)) {
      const a = given[low];
      const b = given[high];
      if (a !== undefined && b !== undefined && a > b) clashes.add(low).add(high);
    }
  });
  if (clashes.size > 0) {
    const named = ORDER.filter((name) => clashes.has(name)).map((name) => `${name} ${given[name]}`);
    throw new ConfigurationError(
      `The options you gave contradict each other: ${named.join(', ')} (milliseconds); they must keep ` +
        `minInterval <= maxInterval <= maxLag. Change one of them, or leave one out: an option left out is ` +
        `derived from the ones given.`,
    );
  }
  const maxLag = given.maxLag ?? Math.max(DEFAULT_INTERVALS.maxLag, given.maxInterval ?? 0, given.minInterval ?? 0);
  const maxInterval =
    given.maxInterval ?? Math.max(given.minInterval ?? 0, Math.min(DEFAULT_INTERVALS.maxInterval, maxLag));
  const minInterval = given.minInterval ?? Math.min(DEFAULT_INTERVALS.minInterval, maxInterval);
  return { maxLag, minInterval, maxInterval };
}
