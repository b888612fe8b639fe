/**
 * intervalsOf's edges that options.test.ts leaves: values that are not a positive number of
 * milliseconds (refused before any pairing, naming the option and the value), and equal values,
 * which keep minInterval <= maxInterval <= maxLag and so are no contradiction.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { intervalsOf } from '../../src/events/intervals.js';

type Given = Parameters<typeof intervalsOf>[0];

function refusal(given: Given): Error {
  try {
    intervalsOf(given);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`intervalsOf(${JSON.stringify(given)}) was accepted`);
}

describe('intervalsOf', () => {
  it.each<[string, Given, string]>([
    ['zero', { maxLag: 0 }, 'maxLag'],
    ['negative', { minInterval: -1 }, 'minInterval'],
    ['NaN', { maxInterval: Number.NaN }, 'maxInterval'],
    ['Infinity', { maxLag: Number.POSITIVE_INFINITY }, 'maxLag'],
    [
      'a numeric string (a value read from the environment, unparsed)',
      { minInterval: '5000' as unknown as number },
      'minInterval',
    ],
    ['null', { maxInterval: null as unknown as number }, 'maxInterval'],
  ])('refuses %s, naming the option and what it got', (_, given, name) => {
    const error = refusal(given);
    expect(error).toBeInstanceOf(ConfigurationError);
    const value = String(Object.values(given)[0]);
    expect(error.message).toBe(`The option ${name} must be a positive number of milliseconds; got ${value}.`);
  });

  it('refuses a bad value even when the others are consistent without it', () => {
    expect(refusal({ minInterval: 1_000, maxInterval: 0, maxLag: 5_000 }).message).toMatch(
      /option maxInterval must be a positive number/,
    );
  });

  it.each<[string, Given, number]>([
    ['minInterval = maxInterval', { minInterval: 5_000, maxInterval: 5_000 }, 900_000],
    ['maxInterval = maxLag', { maxInterval: 5_000, maxLag: 5_000 }, 5_000],
    ['minInterval = maxLag', { minInterval: 5_000, maxLag: 5_000 }, 5_000],
    ['all three equal', { minInterval: 5_000, maxInterval: 5_000, maxLag: 5_000 }, 5_000],
  ])('accepts equal values (%s): they keep the order', (_, given, maxLag) => {
    expect(intervalsOf(given)).toEqual({ minInterval: 5_000, maxInterval: 5_000, maxLag });
  });

  it('accepts 1 ms, the smallest positive value', () => {
    expect(intervalsOf({ minInterval: 1 })).toEqual({ minInterval: 1, maxInterval: 60_000, maxLag: 900_000 });
  });
});
