/**
 * Stores that appear after a sync with their history already there (populated: visits of the past
 * weeks completed and filmed before the store was enrolled, which billing does not list it for):
 * every video is delivered, within `maxLag` of the store's appearance, whether the watcher is
 * restarted between the two loads or runs on, with or without simulated time between them; and
 * stores with no visit at all change nothing.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type Checkpoint, type PartnerEvent } from '../../src/events/index.js';
import type { ClientClock } from '../../src/index.js';
import { startSimEnv, type SimEnv } from './support.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const OPTIONS = { minInterval: MINUTE, maxInterval: 10 * MINUTE, maxLag: HOUR };

type Arrival = 'with history' | 'without visits';

interface Case {
  /** A new watcher on the same checkpoint for the second load, or the first one running on. */
  restart: boolean;
  arrival: Arrival;
  /** Simulated time between the end of the first load's pass and the new stores (ms). */
  gapMs: number;
  /** After how many of the new stores' videos the second watcher's loop is left (a crash mid-store), if at all. */
  crashAt?: number;
}

const isLate = (event: PartnerEvent) => event.partner_location_id.startsWith('late-');

/** Every video the service holds. */
const serviceVideos = (env: SimEnv) =>
  env.sandbox.inspect.stores(env.key).flatMap((s) => env.sandbox.inspect.videos(env.key, s.partner_location_id));

/** New stores: populated with the past weeks' bookings and videos, or with no booking at all. */
function arrive(env: SimEnv, arrival: Arrival): void {
  const reservationsPerLocation = arrival === 'with history' ? 10 : 0;
  env.sandbox.populate(env.key, { locations: 5, reservationsPerLocation, idPrefix: 'late-' });
}

/**
 * A clock whose first wait runs `atFirstWait` before any time passes: at this size no call waits
 * for the budget, so that wait follows the first load's pass, and the service has not moved on.
 */
function clockWithHook(env: SimEnv, atFirstWait: () => Promise<void>): ClientClock {
  let fired = false;
  return {
    now: () => env.clock.now(),
    monotonic: () => env.clock.monotonic?.() ?? env.clock.now(),
    async sleep(ms, signal) {
      if (!fired) {
        fired = true;
        await atFirstWait();
      }
      return env.clock.sleep(ms, signal);
    },
  };
}

/** Runs a watcher on `checkpoint` until simulated time reaches `until` or `controller` aborts; each event with when it came. */
async function runUntil(
  env: SimEnv,
  checkpoint: Checkpoint,
  until: () => number,
  clock: ClientClock = env.clock,
  controller = new AbortController(),
  crashAt = Number.POSITIVE_INFINITY,
): Promise<Array<{ event: PartnerEvent; at: number }>> {
  const delivered: Array<{ event: PartnerEvent; at: number }> = [];
  const watcher = watchEvents(env.client({ clock }), { checkpoint, signal: controller.signal, ...OPTIONS });
  const timer = setInterval(() => {
    if (env.clock.now() >= until()) controller.abort();
  }, 1);
  try {
    let late = 0;
    for await (const event of watcher) {
      delivered.push({ event, at: env.clock.now() });
      // A crash: this event's loop body never finished, the checkpoint stays before it.
      if (event.type === 'video.published' && isLate(event) && ++late >= crashAt) break;
    }
  } finally {
    clearInterval(timer);
  }
  return delivered;
}

async function check(c: Case): Promise<void> {
  const env = await startSimEnv('msw', { visitsPerWeek: 5 });
  try {
    env.sandbox.populate(env.key, { locations: 4, reservationsPerLocation: 10 });
    const checkpoint = memoryCheckpoint();
    let arrivedAt = Number.POSITIVE_INFINITY;
    const arrival = async () => {
      env.sandbox.clock.advance({ ms: c.gapMs });
      arrivedAt = env.clock.now();
      arrive(env, c.arrival);
    };
    const end = () => arrivedAt + OPTIONS.maxLag + OPTIONS.maxInterval;
    let delivered: Array<{ event: PartnerEvent; at: number }>;
    if (c.restart) {
      // The first watcher stops at its first wait: its first load is done, no time has passed.
      const controller = new AbortController();
      const first = clockWithHook(env, async () => controller.abort());
      const before = await runUntil(env, checkpoint, () => Number.POSITIVE_INFINITY, first, controller);
      await arrival();
      delivered = [...before];
      if (c.crashAt !== undefined)
        delivered.push(...(await runUntil(env, checkpoint, end, env.clock, undefined, c.crashAt)));
      delivered.push(...(await runUntil(env, checkpoint, end)));
    } else {
      delivered = await runUntil(env, checkpoint, end, clockWithHook(env, arrival));
    }
    const videos = serviceVideos(env);
    const ids = new Set(
      delivered.flatMap(({ event }) => (event.type === 'video.published' ? [event.data.video_id] : [])),
    );
    expect(videos.filter((v) => !ids.has(v.video_id)).map((v) => v.video_id)).toEqual([]);
    // Each video of the stores that appeared (those posted after included) within maxLag of its appearance.
    const late = delivered.filter(({ event }) => event.type === 'video.published' && isLate(event));
    expect(late.length > 0).toBe(c.arrival === 'with history');
    for (const { event, at } of late) {
      const posted = event.type === 'video.published' ? Date.parse(event.data.posted_at) : 0;
      expect(at - Math.max(arrivedAt, posted), event.id).toBeLessThanOrEqual(OPTIONS.maxLag);
    }
  } finally {
    await env.close();
  }
}

describe('stores that appear after a first load', () => {
  for (const restart of [true, false])
    for (const arrival of ['with history', 'without visits'] as const)
      for (const gapMs of [0, 5 * MINUTE])
        it(`${restart ? 'restarted' : 'running on'}, ${arrival}, ${gapMs / MINUTE} min later: every video, within maxLag`, {
          timeout: 30_000,
        }, async () => {
          await check({ restart, arrival, gapMs });
        });

  it("a crash in the middle of a new store's videos: the rest come after the restart, within maxLag", {
    timeout: 30_000,
  }, async () => {
    await check({ restart: true, arrival: 'with history', gapMs: 0, crashAt: 2 });
  });
});
