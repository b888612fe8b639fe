/**
 * The gate on a clock whose wall reading is set (NTP, a VM restored) while its monotonic reading
 * runs on: the window's end and a pause's end stay where the server put them. Set back 2 days, the
 * gate on the wall clock refused every call (a wait of 2 days, past maxRetryAfter) until the clock
 * caught up again.
 */
import { describe, expect, it } from 'vitest';
import { Gate } from '../../src/core/rate-limit/gate.js';
import type { ServerLimits } from '../../src/core/rate-limit/headers.js';
import { fakeClock } from '../helpers/fake-clock.js';

const DAY = 86_400_000;

const settableClock = () => fakeClock({ start: Date.parse('2026-11-25T12:00:00Z') });

/** The budget as a response read at `wall` tells it: `remaining` left until `inMs` from then. */
const budget = (remaining: number, wall: number, inMs: number): ServerLimits => ({
  rateLimit: { limit: 3, remaining, resetAt: new Date(wall + inMs) },
});

describe('Gate on a clock that is set', () => {
  it.each([
    ['back', -2 * DAY],
    ['forward', 2 * DAY],
  ])('waits out the window as the server set it when the wall clock is set 2 days %s', async (_, jump) => {
    const clock = settableClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ limits: budget(0, clock.now(), 1_000) }));
    clock.shiftWall(jump);
    let sent = 0;
    await gate.run({}, undefined, async () => (sent++, {}));
    expect(sent).toBe(1);
    expect(clock.sleeps).toEqual([1_000]);
    // What the client shows (client.rateLimit) is the server's budget as read, on the wall clock.
    expect(gate.state?.remaining).toBe(0);
  });

  it('keeps taking the newest budget after the wall clock is set back', async () => {
    const clock = settableClock();
    const gate = new Gate({ clock, maxWaitMs: 60_000, pacing: true });
    await gate.run({}, undefined, async () => ({ limits: budget(2, clock.now(), 1_000) }));
    clock.shiftWall(-2 * DAY);
    await gate.run({}, undefined, async () => ({ limits: budget(1, clock.now(), 900) }));
    expect(gate.state?.remaining).toBe(1);
  });
});
