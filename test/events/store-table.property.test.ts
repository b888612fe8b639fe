/**
 * A state kept with a store table equals the same state kept in the checkpoint's lines alone, after
 * any history: stores added (ids repeat), records and video counts set, months rolled by one or
 * two, resets, compactions, and crashes at any point (what was applied and not saved is lost in
 * both), each followed by a load from the checkpoint. As the watcher does, each change is saved
 * once applied, or applied in a silent stretch (a first sync from now) that ends with a compaction
 * or a crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint } from '../../src/events/index.js';
import { WatchState, type StateRecord } from '../../src/events/state.js';
import { storeFamily } from '../../src/events/stores.js';
import { videoFamily } from '../../src/events/videos.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { storeTableCheckpoint } from './store-table-checkpoint.js';

type Op =
  | { k: 'store'; id: string }
  | { k: 'location'; pick: number; status: string; hash: number; missing: boolean }
  | { k: 'videos'; pick: number; seen: number; cur: number; prev: number }
  | { k: 'month'; step: 1 | 2 }
  | { k: 'reset' }
  | { k: 'compact' }
  | { k: 'crash' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('store' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('location' as const),
      pick: fc.nat(),
      status: fc.constantFrom('a', 'p', 't', '~on%20hold'),
      hash: fc.nat(),
      missing: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('videos' as const),
      pick: fc.nat(),
      seen: fc.nat(9),
      cur: fc.nat(9),
      prev: fc.nat(9),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('month' as const), step: fc.constantFrom(1 as const, 2 as const) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reset' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('compact' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('crash' as const) }) },
);

const monthAfter = (month: string, step: number): string => {
  const [y, m] = (month || '2026-10').split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(y, m - 1 + step, 1));
  return next.toISOString().slice(0, 7);
};

/** The records an operation applies to `state` (none when it needs a store and there is none). */
function recordsOf(state: WatchState, o: Op, time: number): StateRecord[] {
  const out: StateRecord[] = [];
  const n = state.stores.length;
  if (o.k === 'store') state.ensureStore(o.id, out);
  else if (o.k === 'location' && n > 0)
    state.record(
      ['l', o.pick % n, `${o.status}|${o.hash.toString(16).padStart(16, '0')}${o.missing ? '|m' : ''}`],
      out,
    );
  else if (o.k === 'videos' && n > 0) state.record(['v', o.pick % n, `${o.seen}|${o.cur}|${o.prev}`], out);
  else if (o.k === 'month') state.record(['m', monthAfter(state.month, o.step)], out);
  else if (o.k === 'reset') state.record(['r', time], out);
  return out;
}

function expectSame(table: WatchState, lines: WatchState): void {
  expect(table.stores.toArray()).toEqual(lines.stores.toArray());
  expect(table.month).toBe(lines.month);
  expect(table.resets).toBe(lines.resets);
  for (let n = 0; n < lines.stores.length; n++) {
    expect(table.storeIndex(lines.stores.get(n) as string)).toBe(n);
    expect(table.family(storeFamily).record(n)).toBe(lines.family(storeFamily).record(n));
    expect(table.family(videoFamily).videos(n)).toEqual(lines.family(videoFamily).videos(n));
  }
  expect(table.family(storeFamily).counts).toEqual(lines.family(storeFamily).counts);
  expect(table.family(videoFamily).total).toBe(lines.family(videoFamily).total);
}

describe('WatchState with a store table, against the lines alone', () => {
  it('equals it after any history of changes, rolls, resets, compactions and crashes, each load included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, fc.boolean()), { maxLength: 60 }), async (history) => {
        const t = storeTableCheckpoint({ pageRows: 3 });
        const reference = memoryCheckpoint();
        let withTable = await WatchState.load(t.checkpoint);
        let withLines = await WatchState.load(reference);
        let time = Date.parse('2026-10-01T00:00:00Z');
        let silent = false;
        const compact = async () => {
          await withTable.compact(t.checkpoint, true);
          await withLines.compact(reference, true);
          silent = false;
        };
        for (const [o, saved] of history) {
          time += 60_000;
          if (o.k === 'compact') await compact();
          else if (o.k === 'crash') {
            t.crash();
            withTable = await WatchState.load(t.checkpoint);
            withLines = await WatchState.load(reference);
            silent = false;
          } else {
            // A silent stretch ends with its compaction before anything is saved again.
            if (saved && silent) await compact();
            const a = recordsOf(withTable, o, time);
            const b = recordsOf(withLines, o, time);
            if (saved) {
              await withTable.commit(t.checkpoint, a);
              await withLines.commit(reference, b);
            } else silent = true;
          }
          expectSame(withTable, withLines);
        }
        t.crash();
        expectSame(await WatchState.load(t.checkpoint), await WatchState.load(reference));
      }),
      fastCheckRuns(200),
    );
  });
});
