/**
 * The watcher's own page walks and clocks against a service we did not write: a `next_cursor` the
 * walk already followed, the same video twice on a page, a store's videos in another order, and
 * the client's clock set back or forward mid-run. Each against the sandbox's ground-truth change log.
 */
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type Watcher } from '../../src/events/index.js';
import { UnexpectedResponseError } from '../../src/index.js';
import { coverage } from './coverage.js';
import { BACK_TO_START, CONTENT, hostileFetch, jumpingClock, RESERVATIONS, runWhile } from './hostile.js';
import { useSimEnv, type SimEnv } from './support.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const OPTIONS = { minInterval: 60_000, maxInterval: 600_000, maxLag: HOUR } as const;

/** Run the loop until simulated time passes `until` (the loop may idle: a timer stops it). */
function runUntil(
  env: SimEnv,
  watcher: Watcher,
  controller: AbortController,
  until: number,
  onTick: () => void = () => {},
): Promise<PartnerEvent[]> {
  return runWhile(watcher, controller, () => {
    onTick();
    return env.sandbox.clock.now().getTime() < until;
  });
}

/** Every change since `start` delivered exactly once, each within maxLag (plus one idle wait). */
function expectEveryChangeOnce(env: SimEnv, start: number, events: PartnerEvent[]) {
  const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > start);
  const lastPoll = env.sandbox.clock.now().getTime();
  const report = coverage(changes, events, lastPoll - OPTIONS.maxLag - OPTIONS.maxInterval);
  expect(changes.filter((c) => c.type === 'video.published').length).toBeGreaterThan(5);
  expect(report.missing).toEqual([]);
  expect(report.duplicates).toBe(0);
  expect(Math.max(...report.lagsMs)).toBeLessThanOrEqual(OPTIONS.maxLag + OPTIONS.maxInterval);
}

describe('the watcher against hostile pages and clocks', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('a next_cursor the walk already followed ends each poll with UnexpectedResponseError, counted in stats.errors, never a loop', {
    timeout: 30_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 4 });
    const looping = hostileFetch(RESERVATIONS, (page) => ({ ...page, next_cursor: BACK_TO_START }));
    const controller = new AbortController();
    const guarded: typeof fetch = (input, init) => {
      // The bug looped on one page with no wait at all: stop it rather than hang.
      if (looping.calls >= 1_000) controller.abort();
      return looping(input, init);
    };
    const client = env.client({ fetch: guarded });
    // The client's own walk has the guard:
    const walk = async () => {
      for await (const _ of client.reservations.list()) void _;
    };
    await expect(walk()).rejects.toBeInstanceOf(UnexpectedResponseError);

    const watcher = watchEvents(client, {
      checkpoint: memoryCheckpoint(),
      signal: controller.signal,
      ...OPTIONS,
      maxInterval: HOUR,
    });
    await runUntil(env, watcher, controller, env.sandbox.clock.now().getTime() + DAY);
    // Each poll (a first sync: the whole list) failed at the repeated cursor and backed off.
    expect(watcher.stats.polls).toBe(0);
    expect(watcher.stats.errors).toBeGreaterThanOrEqual(20);
    expect(watcher.stats.calls).toBeLessThanOrEqual(watcher.stats.errors * 3 + 3);
    expect(looping.calls).toBeLessThan(1_000);
  });

  it("a next_cursor repeated on a store's content stops that walk too, and bookings are still delivered", {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 6 });
    env.sandbox.populate(env.key, { locations: 15, reservationsPerLocation: 4 });
    // From the second day on every store's content leads back to its first page.
    let broken = false;
    const looping = hostileFetch(CONTENT, (page) => (broken ? { ...page, next_cursor: BACK_TO_START } : page));
    const controller = new AbortController();
    const guarded: typeof fetch = (input, init) => {
      if (looping.calls >= 20_000) controller.abort();
      return looping(input, init);
    };
    const start = env.sandbox.clock.now().getTime();
    const watcher = watchEvents(env.client({ fetch: guarded }), {
      checkpoint: memoryCheckpoint(),
      signal: controller.signal,
      ...OPTIONS,
    });
    let before = { events: 0, errors: 0 };
    const events = await runUntil(env, watcher, controller, start + 3 * DAY, () => {
      if (broken || env.sandbox.clock.now().getTime() < start + DAY) return;
      broken = true;
      before = { events: watcher.stats.events, errors: watcher.stats.errors };
    });
    expect(broken).toBe(true);
    expect(before.errors).toBe(0);
    // Every poll that read a store's content failed at the repeated cursor, counted and backed off.
    expect(watcher.stats.errors).toBeGreaterThan(5);
    expect(looping.calls).toBeLessThan(5_000);
    // Bookings found before the content is read are still delivered, each once.
    const later = events.slice(before.events);
    expect(later.filter((e) => e.type === 'reservation.created').length).toBeGreaterThan(5);
    expect(later.filter((e) => e.type === 'video.published')).toEqual([]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('the same video twice on a content page (now and then) is delivered once, and the next video is not lost', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 6 });
    env.sandbox.populate(env.key, { locations: 15, reservationsPerLocation: 4 });
    const start = env.sandbox.clock.now().getTime();
    const duplicating = hostileFetch(CONTENT, (page, _, call) =>
      call % 2 === 0 && page.items.length > 0
        ? { ...page, items: [...page.items, page.items.at(-1) as Record<string, unknown>] }
        : page,
    );
    const controller = new AbortController();
    const watcher = watchEvents(env.client({ fetch: duplicating }), {
      checkpoint: memoryCheckpoint(),
      signal: controller.signal,
      ...OPTIONS,
    });
    const events = await runUntil(env, watcher, controller, start + 4 * DAY);
    expectEveryChangeOnce(env, 0, events);
  });

  it("a store's videos listed in another order are not delivered again, and the new one is", {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 6 });
    env.sandbox.populate(env.key, { locations: 15, reservationsPerLocation: 4 });
    const start = env.sandbox.clock.now().getTime();
    const reversing = hostileFetch(CONTENT, (page, _, call) =>
      call % 2 === 1 ? { ...page, items: [...page.items].reverse() } : page,
    );
    const controller = new AbortController();
    const watcher = watchEvents(env.client({ fetch: reversing }), {
      checkpoint: memoryCheckpoint(),
      signal: controller.signal,
      ...OPTIONS,
    });
    const events = await runUntil(env, watcher, controller, start + 4 * DAY);
    expectEveryChangeOnce(env, 0, events);
  });

  it.each([
    ['back', -2 * DAY],
    ['forward', 2 * DAY],
  ])(
    'the client clock set 2 days %s mid-run: reconciliations keep running and every change arrives within maxLag',
    { timeout: 60_000 },
    async (_, jumpMs) => {
      env = await startSimEnv('msw', { visitsPerWeek: 6 });
      env.sandbox.populate(env.key, { locations: 40, reservationsPerLocation: 4 });
      const clock = jumpingClock(env);
      const start = env.sandbox.clock.now().getTime();
      const controller = new AbortController();
      const watcher = watchEvents(env.client({ clock }), {
        checkpoint: memoryCheckpoint(),
        signal: controller.signal,
        startFrom: 'now',
        ...OPTIONS,
      });
      let jumped: { at: number; reconciliations: number; calls: number } | undefined;
      const events = await runUntil(env, watcher, controller, start + 4 * DAY, () => {
        const now = env.sandbox.clock.now().getTime();
        if (jumped === undefined && now >= start + DAY) {
          clock.jump(jumpMs);
          jumped = { at: now, reconciliations: watcher.stats.reconciliations, calls: watcher.stats.calls };
        }
      });
      expect(jumped).toBeDefined();
      const after = jumped as { at: number; reconciliations: number; calls: number };
      // A reconciliation at least every maxLag after the jump, and not one every poll either.
      const hours = (env.sandbox.clock.now().getTime() - after.at) / HOUR;
      const reconciliations = watcher.stats.reconciliations - after.reconciliations;
      expect(reconciliations).toBeGreaterThanOrEqual(Math.floor(hours) - 1);
      expect(reconciliations).toBeLessThanOrEqual(2 * Math.ceil(hours) + 2);
      expectEveryChangeOnce(env, start, events);
    },
  );
});
