/**
 * crp-sandbox's flags (issue 21, part 2): a default never clashes with a flag given; two flags the
 * caller gave that contradict each other are refused, naming both values.
 */
import { describe, expect, it } from 'vitest';
import { UsageError, parseOptions } from '../../src/testing/cli/options.js';

describe('crp-sandbox flags that say how time moves', () => {
  it.each([
    [['--pace', '3600'], { pace: 3600, advanceEveryMs: 0, advanceMinutes: 60 }],
    [['--advance-every-ms', '500'], { pace: 0, advanceEveryMs: 500, advanceMinutes: 60 }],
    [['--advance-every-ms', '500', '--advance-minutes', '30'], { pace: 0, advanceEveryMs: 500, advanceMinutes: 30 }],
    [[], { pace: 0, advanceEveryMs: 0, advanceMinutes: 60 }],
  ])('%j', (argv, expected) => {
    expect(parseOptions(argv, {})).toMatchObject(expected);
  });

  it.each([
    [
      ['--pace', '3600', '--advance-every-ms', '1000'],
      '--pace 3600 and --advance-every-ms 1000 were both given, and each sets how simulated time moves: give one (--pace is the newer form)',
    ],
    [
      ['--pace', '0', '--advance-every-ms', '1000'],
      '--pace 0 and --advance-every-ms 1000 were both given, and each sets how simulated time moves: give one (--pace is the newer form)',
    ],
    [
      ['--pace', '60', '--advance-minutes', '30'],
      '--advance-minutes 30 was given without --advance-every-ms, so it would do nothing: add --advance-every-ms N, or use --pace',
    ],
  ])('refuses %j, naming what was given', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(new UsageError(message));
  });
});
