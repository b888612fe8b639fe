import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCheckpoint, syncBookings } from '../../examples/sync-bookings.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/sync-bookings.ts', () => {
  let env: ExampleEnv;
  let dir: string;
  const startExampleEnv = useExampleEnv();
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after a crash from the checkpointed cursor, handling every booking exactly once', async () => {
    env = await startExampleEnv();
    env.sandbox.populate(env.apiKey, { locations: 4, reservationsPerLocation: 30 });
    const all = env.sandbox.inspect.reservations(env.apiKey);
    const open = new Set(all.filter((b) => b.acknowledged_kind === null).map((b) => b.reservation_id));
    expect(all).toHaveLength(120);
    expect(open.size).toBeGreaterThan(40);

    dir = mkdtempSync(join(tmpdir(), 'crp-sync-'));
    const checkpoint = fileCheckpoint(join(dir, 'checkpoint.json'));
    const handled: string[] = [];
    const quiet = () => {};

    // Run 1 crashes in the handler on the 41st new booking.
    await expect(
      syncBookings(env.client, {
        checkpoint,
        pageSize: 25,
        print: quiet,
        onBooking: (b) => {
          if (handled.length === 40) throw new Error('simulated crash');
          handled.push(b.reservation_id);
        },
      }),
    ).rejects.toThrow('simulated crash');
    const savedCursor = await checkpoint.load();
    expect(savedCursor).toBeTypeOf('string');

    // Run 2 resumes: it does not walk from the start, and nothing is handled twice.
    const second = await syncBookings(env.client, {
      checkpoint,
      pageSize: 25,
      print: quiet,
      onBooking: (b) => void handled.push(b.reservation_id),
    });
    expect(second.resumed).toBe(true);
    expect(second.seen).toBeLessThan(120);
    expect(new Set(handled).size).toBe(handled.length);
    expect(new Set(handled)).toEqual(open);
    expect(Object.keys(second.perStore).length).toBeGreaterThan(1);
    expect(env.sandbox.inspect.reservations(env.apiKey).filter((b) => b.acknowledged_kind === null)).toEqual([]);

    // Run 3, a week later: only the bookings that arrived since are handled.
    env.sandbox.clock.advance({ days: 7 });
    const arrived = env.sandbox.inspect
      .reservations(env.apiKey)
      .filter((b) => b.acknowledged_kind === null)
      .map((b) => b.reservation_id);
    expect(arrived.length).toBeGreaterThan(0);
    const third: string[] = [];
    const result = await syncBookings(env.client, {
      checkpoint,
      pageSize: 25,
      print: quiet,
      onBooking: (b) => void third.push(b.reservation_id),
    });
    expect(result.seen).toBeLessThan(120);
    expect(third.sort()).toEqual(arrived.sort());
  });
});
