/**
 * The simulated-time sandbox itself (support.ts): a loop that calls without waiting still lets a
 * timer fire, so the test's own timeout can stop it, and a loop the test left running ends with
 * the test.
 */
import { describe, expect, it } from 'vitest';
import { startSimEnv } from './support.js';

describe('the simulated-time sandbox', () => {
  it('answers each call on a later turn of the event loop, as a network does', async () => {
    const env = await startSimEnv('msw');
    try {
      const client = env.client();
      const call = () => client.locations.get('loc_unknown').catch(() => {});
      // The first calls load what the client needs (long enough for any timer): not counted.
      for (let i = 0; i < 5; i++) await call();
      let timerFired = false;
      setTimeout(() => (timerFired = true), 0);
      // Calls one after the other, none waiting on the clock: a timer still gets its turn. With
      // msw alone a timer of 0 ms waited about 1,200 such calls (5 s).
      let calls = 0;
      while (!timerFired && calls < 100) {
        await call();
        calls++;
      }
      expect(timerFired).toBe(true);
    } finally {
      await env.close();
    }
  });

  it('once closed, rejects every sleep on its clock: a loop the test left running ends at its next wait', async () => {
    const env = await startSimEnv('msw');
    await env.clock.sleep(1);
    await env.close();
    await expect(env.clock.sleep(1)).rejects.toThrow(/whose test is over/);
    expect(env.clock.sleeps).toEqual([1]);
  });
});
