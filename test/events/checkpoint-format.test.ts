import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/events/checkpoint-format.js';
import { refusal } from './checkpoint-lines.js';

/**
 * The gate every checkpoint line goes through (hostile-checkpoint.test.ts drives it through the
 * watcher): each field and record kind, the values it takes and the values it refuses, and what the
 * refusal says.
 */
const SNAPSHOT = {
  format: 'crp-events/1',
  month: '2026-11',
  tail: { cursor: null, seen: 0 },
  fullAt: null,
  stores: ['store-1', 'store-2'],
  bookings: { r1: '0|p||', r2: '1|~no%20show|a|-5' },
  videos: { '0': '1|0|0', '10': '3|1|2|2026-01,2026-02', '123': '0|0|0' },
  videoIds: { '0': ['v1'] },
  key: '0123456789abcdef',
  service: 'https://api.test/partner/v1',
  seenAt: 5,
  resets: 0,
};

const snapshotWith = (changes: Record<string, unknown>) => JSON.stringify({ ...SNAPSHOT, ...changes });

describe('a snapshot line', () => {
  it('is taken whole, with every field valid, and with the optional ones missing', () => {
    expect(readLine(JSON.stringify(SNAPSHOT), 0)).toEqual({ snapshot: SNAPSHOT });
    const { videoIds: _v, key: _k, service: _s, seenAt: _a, resets: _r, ...older } = SNAPSHOT;
    expect(
      readLine(JSON.stringify({ ...older, month: '', tail: { cursor: 'c1', seen: 3 }, fullAt: 7 }), 0),
    ).toHaveProperty('snapshot.tail.cursor', 'c1');
  });

  it.each<[string, unknown[]]>([
    ['month', ['2026-13', '2026-00', 'x2026-01', '2026-011', ['2026-01'], 202601]],
    [
      'tail',
      [
        { cursor: null },
        { cursor: 5, seen: 0 },
        { cursor: null, seen: -1 },
        { cursor: null, seen: 0, more: 1 },
        'cs',
        null,
      ],
    ],
    ['fullAt', ['5', 'x', true]],
    ['stores', [['a', 'a'], ['a', ''], 'a']],
    ['bookings', ['', { r1: ['0|p||'] }, { r1: '0|~%E0%A4%A|a|' }, { r1: '0|P||' }, { '': '0|p||' }]],
    ['videos', ['', { '01': '1|0|0' }, { '1x': '1|0|0' }, { x1: '1|0|0' }, { '0': ['1|0|0'] }, { '0': '1|0' }]],
    ['videoIds', [{ '0': [''] }, { '0': 'v1' }]],
    ['key', ['x0123456789abcdef', '0123456789abcdef0', '0123456789ABCDEF', ['0123456789abcdef'], 5]],
    ['service', ['', 5]],
    ['seenAt', ['5']],
    ['resets', [-1, 1.5]],
  ])('refuses an invalid %s, naming the field', (field, values) => {
    for (const value of values) {
      expect(refusal(snapshotWith({ [field]: value })), JSON.stringify(value)).toContain(
        `the snapshot's field ${field} is not valid.`,
      );
    }
  });

  it('refuses a missing field, an unknown field, another format, and a snapshot after line 1', () => {
    const { tail: _t, ...noTail } = SNAPSHOT;
    expect(refusal(JSON.stringify(noTail))).toContain("the snapshot's field tail is missing.");
    expect(refusal(snapshotWith({ extra: 1, other: 2 }))).toContain(
      'the snapshot has fields this version does not know (extra, other).',
    );
    expect(refusal(snapshotWith({ format: 'crp-events/2' }))).toContain(
      'line 1 is not a snapshot of the event watcher (crp-events/1).',
    );
    expect(refusal(snapshotWith({ format: 'crp-events/2' }), 2)).toContain(
      'line 3 is not a journal line (crp-events/1).',
    );
    expect(refusal(JSON.stringify(SNAPSHOT), 1)).toContain('line 2 is a second snapshot');
  });
});

describe('a journal line', () => {
  it('takes every record kind this version writes', () => {
    const records = [
      ['s', 'store-1'],
      ['b', 'r1', '0|~a%20b|a|'],
      ['v', 0, '1|0|0'],
      ['v', 0, '2|0|0', 'v1', 'v2'],
      ['t', null, 0],
      ['t', 'c', 2],
      ['f', 5],
      ['m', '2026-01'],
      ['r', 5],
    ];
    expect(readLine(JSON.stringify(records), 3)).toEqual({ records });
  });

  it.each([
    [[['t', 5, 0]], '(["t",5,0])'],
    [[['v', 0, '1|0|0', '']], '(["v",0,"1|0|0",""])'],
    [[['v', 0, '1|0|0', 5]], '(["v",0,"1|0|0",5])'],
    [[['m', ['2026-01']]], '(["m",["2026-01"]])'],
    [[['f', '5']], '(["f","5"])'],
    [['sx'], '("sx")'],
    [[[['s'], 'x']], '([["s"],"x"])'],
    [[{ s: 'x' }], '({"s":"x"})'],
    [[['s', 'x', 'y']], '(["s","x","y"])'],
    [[['b', 'r1', 'x'.repeat(47)]], `(["b","r1","${'x'.repeat(47)}"])`],
    [
      [
        ['s', 'x'],
        ['b', 'r1', 'x'.repeat(70)],
      ],
      `record 2 is not a record this version writes (["b","r1","${'x'.repeat(49)}…)`,
    ],
  ])('refuses %j, showing the record (its first 60 characters)', (records, shown) => {
    expect(refusal(JSON.stringify(records), 1)).toContain(shown);
  });
});
