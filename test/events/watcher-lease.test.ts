/**
 * The watcher's loop around the detector: the lease confirmed before each event and once per pass
 * (a watcher that lost it delivers nothing more), and stopping in the middle of a pass and while
 * a failed pass waits. Stopping while idle, on break, on client.close() and before the first pass
 * is in watch.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointLockedError } from '../../src/index.js';
import { memoryCheckpoint, watchEvents, type Checkpoint, type PartnerEvent } from '../../src/events/index.js';
import { useSimEnv } from './support.js';

describe('the watcher loop', () => {
  const startSimEnv = useSimEnv();

  it('confirms the lease before each event and at the start of each pass; a lost lease ends the loop before the next event', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const log: string[] = [];
    let lost = false;
    const inner = memoryCheckpoint();
    const checkpoint: Checkpoint = {
      load: () => inner.load(),
      save: (line, options) => inner.save(line, options),
      confirm: async () => {
        log.push('confirm');
        if (lost) throw new CheckpointLockedError('lost in the test');
      },
    };
    const client = env.client({
      fetch: (input, init) => {
        if (new URL(new Request(input, init).url).pathname.endsWith('/summary')) log.push('summary');
        return fetch(new Request(input, init));
      },
    });
    const events: PartnerEvent[] = [];
    await expect(
      (async () => {
        for await (const event of watchEvents(client, { checkpoint })) {
          log.push('event');
          events.push(event);
          if (events.length === 4) lost = true;
        }
      })(),
    ).rejects.toBeInstanceOf(CheckpointLockedError);
    expect(events).toHaveLength(4);
    // Each event comes right after a confirm; each pass's summary too. A summary read again at once
    // (the service's time not confirmed by one answer) is the same pass's.
    const again = (i: number) => log[i] === 'summary' && log[i - 1] === 'summary';
    log.forEach((entry, i) => {
      if (entry === 'event' || (entry === 'summary' && !again(i)))
        expect(log[i - 1], `${entry} at ${i}`).toBe('confirm');
    });
    const confirmed = log.filter((e, i) => e !== 'confirm' && !again(i));
    expect(log.filter((e) => e === 'confirm')).toHaveLength(confirmed.length + 1);
  });

  it('stops in the middle of a pass (the call in progress ends it) without an error, and while a failed pass waits', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    let lists = 0;
    const client = env.client({
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname.endsWith('/reservations') && ++lists === 1) watcher.stop();
        return fetch(request);
      },
    });
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint() });
    const seen: PartnerEvent[] = [];
    for await (const event of watcher) seen.push(event);
    // Stopped while the first page was on its way: the pass delivers nothing after it.
    expect(seen.length).toBeLessThanOrEqual(6);
    expect(watcher.stats.reconciliations).toBe(0);

    let failures = 0;
    const failing = env.client({
      maxRetries: 0,
      fetch: async () => {
        failures++;
        return new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } });
      },
    });
    const waiting = watchEvents(failing, { checkpoint: memoryCheckpoint(), minInterval: 10_000, maxInterval: 60_000 });
    const sleeps = env.clock.sleeps.length;
    const done = (async () => {
      for await (const _ of waiting);
    })();
    while (env.clock.sleeps.length === sleeps) await new Promise((r) => setTimeout(r, 1));
    waiting.stop();
    await done;
    expect(waiting.stats.errors).toBeGreaterThanOrEqual(1);
    // Each failed pass waits its interval, doubling from minInterval (never at once).
    const waits = env.clock.sleeps.slice(sleeps, sleeps + waiting.stats.errors).map(Number);
    expect(waits.slice(0, 3)).toEqual([10_000, 20_000, 40_000].slice(0, Math.min(3, waits.length)));
    expect(failures).toBeGreaterThanOrEqual(1);
  });
});
