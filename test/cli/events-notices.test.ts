/** What `crp events tail` says on stderr, on a fake clock: where it starts, a heartbeat while idle (at most one a minute), a summary at the end. */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchStats } from '../../src/events/index.js';
import { startingPoint, tailNotices } from '../../src/cli/events-notices.js';

function captured(): { stream: NodeJS.WritableStream; lines: () => string[] } {
  let out = '';
  const stream = new Writable({ write: (chunk, _e, done) => ((out += String(chunk)), done()) });
  return { stream, lines: () => out.split('\n').filter(Boolean) };
}

const stats = (more: Partial<WatchStats> = {}) =>
  ({ calls: 40, polls: 12, errors: 1, reconciliations: 1, lock: 'held', ...more }) as WatchStats;

describe('crp events tail on stderr', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('says where it starts, then a heartbeat after each idle minute (never two in a minute), none while events flow, and a summary at the end', () => {
    const { stream, lines } = captured();
    const notices = tailNotices(stream, 'from now (changes made from here on)', {
      stats: () => stats(),
      now: Date.now,
    });
    expect(lines()).toEqual(['crp: watching from now (changes made from here on). Events go to stdout; Ctrl-C stops.']);

    vi.advanceTimersByTime(59_000);
    expect(lines()).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(lines().at(-1)).toBe(
      'crp: still watching: no new event in 1m00s; 0 so far in 1m00s (12 polls, 1 failed, lock held).',
    );
    vi.advanceTimersByTime(55_000);
    expect(lines()).toHaveLength(2);

    // Events keep it quiet: each one starts the minute again.
    notices.event();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(30_000);
      notices.event();
    }
    expect(lines()).toHaveLength(2);
    vi.advanceTimersByTime(60_000);
    expect(lines().at(-1)).toBe(
      'crp: still watching: no new event in 1m00s; 11 so far in 7m55s (12 polls, 1 failed, lock held).',
    );

    // Ten idle minutes: ten heartbeats, one a minute at most.
    vi.advanceTimersByTime(600_000);
    const beats = lines().filter((l) => l.startsWith('crp: still watching'));
    expect(beats).toHaveLength(12);

    notices.end(stats({ calls: 99 }));
    expect(lines().at(-1)).toBe(
      'crp: watched for 17m55s: 11 events, 99 calls, 12 polls (1 failed), 1 full reconciliations.',
    );
    vi.advanceTimersByTime(600_000);
    expect(lines().filter((l) => l.startsWith('crp: still watching'))).toHaveLength(12);
  });

  it('names the starting point for each kind of checkpoint, never a Redis password', () => {
    expect(startingPoint(undefined, 'now', undefined)).toBe(
      'from now (changes made from here on); without --checkpoint the position is not kept',
    );
    expect(startingPoint('c.json', 'beginning', false)).toBe(
      'from the beginning (first everything that exists); c.json holds no position yet and keeps it from here on',
    );
    expect(startingPoint('c.json', 'beginning', true)).toBe('from the position saved in c.json');
    const redis = startingPoint('redis://:s3cret@redis.internal:6379', 'now', undefined, 'crp-events');
    expect(redis).toBe(
      'from the position in the checkpoint crp-events at redis://:***@redis.internal:6379, or, if it holds none yet, from now (changes made from here on)',
    );
    expect(redis).not.toContain('s3cret');
  });
});
