/**
 * Watch options: what the caller leaves out is derived from what they gave, and only a
 * contradiction between values the caller wrote is refused, naming exactly those values.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, type PartnerClient } from '../../src/index.js';
import { intervalsOf } from '../../src/events/intervals.js';
import { memoryCheckpoint, watchEvents } from '../../src/events/index.js';
import { startSimEnv, type SimEnv } from './support.js';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);
const NAMES = ['minInterval', 'maxInterval', 'maxLag'] as const;
type Given = Partial<Record<(typeof NAMES)[number], number>>;

/** The names among the given values that break minInterval <= maxInterval <= maxLag with another given one. */
function clashing(given: Given): string[] {
  const out = new Set<string>();
  NAMES.forEach((low, i) => {
    for (const high of NAMES.slice(i + 1)) {
      const a = given[low];
      const b = given[high];
      if (a !== undefined && b !== undefined && a > b) out.add(low).add(high);
    }
  });
  return NAMES.filter((n) => out.has(n));
}

/** The names the error message quotes with a value (`maxLag 3000`). */
const named = (message: string) => NAMES.filter((n) => new RegExp(`\\b${n} \\d`).test(message));

describe('watch options', () => {
  let env: SimEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    client = env.client();
  });
  afterAll(() => env.close());

  it.each<[string, Given, { minInterval: number; maxInterval: number; maxLag: number }]>([
    ['nothing: the defaults', {}, { minInterval: 10_000, maxInterval: 60_000, maxLag: 900_000 }],
    ['maxLag 3 s: intervals fit in it', { maxLag: 3_000 }, { minInterval: 3_000, maxInterval: 3_000, maxLag: 3_000 }],
    ['maxLag 30 s', { maxLag: 30_000 }, { minInterval: 10_000, maxInterval: 30_000, maxLag: 30_000 }],
    [
      'minInterval above the default maxInterval lifts it',
      { minInterval: 120_000 },
      { minInterval: 120_000, maxInterval: 120_000, maxLag: 900_000 },
    ],
    [
      'minInterval above the default maxLag lifts both',
      { minInterval: 2_000_000 },
      { minInterval: 2_000_000, maxInterval: 2_000_000, maxLag: 2_000_000 },
    ],
    [
      'maxInterval below the default minInterval lowers it',
      { maxInterval: 5_000 },
      { minInterval: 5_000, maxInterval: 5_000, maxLag: 900_000 },
    ],
    [
      'maxInterval above the default maxLag lifts it',
      { maxInterval: 3_600_000 },
      { minInterval: 10_000, maxInterval: 3_600_000, maxLag: 3_600_000 },
    ],
    [
      'minInterval and maxLag',
      { minInterval: 2_000, maxLag: 5_000 },
      { minInterval: 2_000, maxInterval: 5_000, maxLag: 5_000 },
    ],
    [
      'minInterval and maxInterval',
      { minInterval: 1_000, maxInterval: 16_000 },
      { minInterval: 1_000, maxInterval: 16_000, maxLag: 900_000 },
    ],
    [
      'maxInterval and maxLag',
      { maxInterval: 2_000, maxLag: 4_000 },
      { minInterval: 2_000, maxInterval: 2_000, maxLag: 4_000 },
    ],
    ['all three', { minInterval: 1, maxInterval: 2, maxLag: 3 }, { minInterval: 1, maxInterval: 2, maxLag: 3 }],
  ])('%s', (_, given, expected) => {
    expect(intervalsOf(given)).toEqual(expected);
    expect(() => watchEvents(client, { checkpoint: memoryCheckpoint(), ...given })).not.toThrow();
  });

  it.each<[Given, string[]]>([
    [{ minInterval: 5_000, maxLag: 3_000 }, ['minInterval', 'maxLag']],
    [{ minInterval: 5_000, maxInterval: 4_000 }, ['minInterval', 'maxInterval']],
    [{ maxInterval: 5_000, maxLag: 4_000 }, ['maxInterval', 'maxLag']],
    [{ minInterval: 3, maxInterval: 2, maxLag: 1 }, ['minInterval', 'maxInterval', 'maxLag']],
    [{ minInterval: 1, maxInterval: 3, maxLag: 2 }, ['maxInterval', 'maxLag']],
  ])('refuses %j naming %j', (given, names) => {
    let error: unknown;
    try {
      watchEvents(client, { checkpoint: memoryCheckpoint(), ...given });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(named((error as Error).message)).toEqual(names);
    expect((error as Error).message).toMatch(/contradict/);
  });

  it('with maxLag 3 s, never waits longer than 3 s between polls', async () => {
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1 });
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), maxLag: 3_000 });
    const before = env.clock.sleeps.length;
    const iterator = watcher[Symbol.asyncIterator]();
    const pending = iterator.next();
    await pending;
    const next = iterator.next();
    while (env.clock.sleeps.length < before + 5) await new Promise((r) => setImmediate(r));
    watcher.stop();
    await next;
    const waits = env.clock.sleeps.slice(before);
    expect(Math.max(...waits)).toBeLessThanOrEqual(3_000);
  });

  it('property: any consistent subset is accepted and kept; any contradiction is refused naming exactly the clashing values', () => {
    const value = fc.integer({ min: 1, max: 5_000_000 });
    const given = fc.record({ minInterval: value, maxInterval: value, maxLag: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(given, (g) => {
        const clash = clashing(g);
        let error: unknown;
        let result: ReturnType<typeof intervalsOf> | undefined;
        try {
          result = intervalsOf(g);
        } catch (e) {
          error = e;
        }
        if (clash.length === 0) {
          expect(error).toBeUndefined();
          expect(result?.minInterval).toBeLessThanOrEqual(result?.maxInterval ?? 0);
          expect(result?.maxInterval).toBeLessThanOrEqual(result?.maxLag ?? 0);
          for (const name of NAMES) if (g[name] !== undefined) expect(result?.[name]).toBe(g[name]);
        } else {
          expect(error).toBeInstanceOf(ConfigurationError);
          expect(named((error as Error).message)).toEqual(clash);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
