/**
 * Checkpoints written by the `crp-events/1` watcher (fixtures/checkpoints/, written by the watcher
 * of commit c154a18 against the sandbox: 9 simulated days over a month end, 6 stores,
 * acknowledgements, videos) load into the same state, and what this version writes back from
 * them loads into it again. One checkpoint is a snapshot with journal lines, one only journal
 * lines after an empty snapshot.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WatchState } from '../../src/events/state.js';
import { checkpointOf } from './checkpoint-lines.js';
import { bookingFamily } from '../../src/events/bookings.js';
import { videoFamily } from '../../src/events/videos.js';

const dir = new URL('./fixtures/checkpoints/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('format-1.expected.json', dir), 'utf8'));

function described(state: WatchState) {
  const booked = state.family(bookingFamily);
  const filmed = state.family(videoFamily);
  const bookings = Object.fromEntries(
    [...booked.open, ...Object.keys(expected.bookings)].map((id) => [id, booked.booking(id)]),
  );
  const videos = state.stores.toArray().map((_, i) => ({ ...filmed.videos(i), ids: [...(filmed.delivered(i) ?? [])] }));
  const { month, tail, fullAt, seenAt, resets, stores } = state;
  const { counts } = booked;
  const videoTotal = filmed.total;
  return {
    month,
    tail,
    fullAt,
    seenAt,
    resets,
    stores: [...stores],
    counts: { ...counts },
    videoTotal,
    open: [...booked.open].sort(),
    bookings,
    videos,
  };
}

describe('checkpoints of format crp-events/1', () => {
  for (const name of ['snapshot', 'journal']) {
    it(`loads one written as ${name === 'snapshot' ? 'a snapshot and journal lines' : 'journal lines'}, and reads back what it writes`, async () => {
      const lines = readFileSync(new URL(`format-1-${name}.jsonl`, dir), 'utf8')
        .trimEnd()
        .split('\n');
      const state = await WatchState.load(await checkpointOf(lines));
      expect(described(state)).toEqual(expected);

      const again = await WatchState.load(await checkpointOf([state.snapshot()]));
      expect(described(again)).toEqual(expected);
    });
  }
});
