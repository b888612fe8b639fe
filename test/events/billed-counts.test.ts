/**
 * BilledCounts: a count is kept only when the store's content explains it in some time zone (no
 * fewer than the videos in the month in every zone, no more than those in it in any), is per
 * month, and is forgotten for older months.
 */
import { describe, expect, it } from 'vitest';
import { billedFrom, billedUnchanged, explainedCounts } from '../../src/events/billed-counts.js';

const at = (iso: string) => Date.parse(iso);
/** Two videos well inside November, one 2 h before December in UTC (November or December by zone), one inside December. */
const POSTED = [
  at('2026-11-10T12:00:00Z'),
  at('2026-11-20T12:00:00Z'),
  at('2026-11-30T22:00:00Z'),
  at('2026-12-10T12:00:00Z'),
];

function kept(month: string, count: number, postedAt = POSTED): boolean {
  return billedUnchanged(explainedCounts(undefined, new Map([[month, count]]), postedAt), month, count);
}

describe('BilledCounts', () => {
  it('keeps a count the content explains in some time zone, and no other', () => {
    expect([1, 2, 3, 4].map((n) => kept('2026-11', n))).toEqual([false, true, true, false]);
    expect([0, 1, 2, 3].map((n) => kept('2026-12', n))).toEqual([false, true, true, false]);
    expect(kept('2026-10', 0)).toBe(true);
    expect(kept('2026-10', 1)).toBe(false);
  });

  it('counts a video a zone reach (14 h) or less before the month start as possibly in either month, and not one earlier', () => {
    const reach = [at('2026-11-30T10:00:00Z')];
    expect([
      kept('2026-11', 0, reach),
      kept('2026-11', 1, reach),
      kept('2026-12', 0, reach),
      kept('2026-12', 1, reach),
    ]).toEqual([true, true, true, true]);
    const before = [at('2026-11-30T09:59:59.999Z')];
    expect([
      kept('2026-11', 0, before),
      kept('2026-11', 1, before),
      kept('2026-12', 0, before),
      kept('2026-12', 1, before),
    ]).toEqual([false, true, true, false]);
  });

  it('answers unchanged only for the same month and count, and for nothing kept', () => {
    const billed = explainedCounts(
      undefined,
      new Map([
        ['2026-11', 2],
        ['2026-12', 1],
      ]),
      POSTED,
    );
    expect(billed).toEqual({ '2026-11': 2, '2026-12': 1 });
    expect(billedUnchanged(billed, '2026-11', 2)).toBe(true);
    expect(billedUnchanged(billed, '2026-12', 1)).toBe(true);
    expect(billedUnchanged(billed, '2026-11', 3)).toBe(false);
    expect(billedUnchanged(billed, '2026-10', 0)).toBe(false);
    expect(billedUnchanged(undefined, '2026-11', 2)).toBe(false);
    expect(billedUnchanged({}, 'constructor', 0)).toBe(false);
  });

  it('drops a kept count the content no longer explains, and keeps the months it was not asked about', () => {
    const first = explainedCounts(
      undefined,
      new Map([
        ['2026-11', 2],
        ['2026-12', 1],
      ]),
      POSTED,
    );
    const after = explainedCounts(first, new Map([['2026-11', 2]]), POSTED.slice(2));
    expect(after).toEqual({ '2026-12': 1 });
    expect(first).toEqual({ '2026-11': 2, '2026-12': 1 });
  });

  it('forgets months before a given one', () => {
    const billed = explainedCounts(
      undefined,
      new Map([
        ['2026-10', 0],
        ['2026-11', 2],
        ['2026-12', 1],
      ]),
      POSTED,
    );
    expect(billedFrom(billed, '2026-11')).toEqual({ '2026-11': 2, '2026-12': 1 });
    expect(billedFrom(undefined, '2026-11')).toBeUndefined();
  });
});
