import { describe, expect, it } from 'vitest';
import { eventId } from '../../src/events/event-id.js';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type Watcher } from '../../src/events/index.js';
import { TRANSPORTS } from '../helpers/sdk-env.js';
import { coverage } from './coverage.js';
import { useSimEnv, type SimEnv } from './support.js';

const DAY = 86_400_000;

/** Run the loop until simulated time passes `until`, recording each event (then `break`). */
async function runUntil(
  env: SimEnv,
  watcher: Watcher,
  until: number,
  onEvent: (e: PartnerEvent) => unknown = () => {},
): Promise<PartnerEvent[]> {
  const events: PartnerEvent[] = [];
  for await (const event of watcher) {
    events.push(event);
    await onEvent(event);
    if (env.clock.now() >= until) break;
  }
  return events;
}

describe.each(TRANSPORTS)('watchEvents() over %s', (kind) => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('first delivers what exists (every booking as reservation.created, every video as video.published), with deterministic ids', async () => {
    env = await startSimEnv(kind, { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 12, reservationsPerLocation: 15 });
    const bookings = env.sandbox.inspect.reservations(env.key);
    const videos = env.sandbox.inspect
      .stores(env.key)
      .flatMap((s) => env.sandbox.inspect.videos(env.key, s.partner_location_id));
    expect(videos.length).toBeGreaterThan(10);

    const client = env.client();
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint() });
    const events = await runUntil(env, watcher, 0, () => undefined);
    // runUntil(0) stops after the first event; take the whole first sync instead:
    expect(events).toHaveLength(1);
    const all: PartnerEvent[] = [];
    const second = watchEvents(client, { checkpoint: memoryCheckpoint() });
    for await (const event of second) {
      all.push(event);
      if (all.length === bookings.length + videos.length) break;
    }
    const created = all.filter((e) => e.type === 'reservation.created');
    const published = all.filter((e) => e.type === 'video.published');
    expect(created.map((e) => e.data.reservation_id).sort()).toEqual(bookings.map((b) => b.reservation_id).sort());
    expect(published.map((e) => e.data.video_id).sort()).toEqual(videos.map((v) => v.video_id).sort());
    for (const e of created) expect(e.data).toEqual(bookings.find((b) => b.reservation_id === e.data.reservation_id));
    // The same change has the same id, in another watcher with its own checkpoint.
    expect(events[0]?.id).toBe(
      all.find((e) => e.type === events[0]?.type && JSON.stringify(e.data) === JSON.stringify(events[0]?.data))?.id,
    );
    expect(created[0]?.id).toBe(eventId(`c|${created[0]?.data.reservation_id}`));
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(second.stats.events).toBe(all.length);
    expect(second.stats.reconciliations).toBe(0); // still inside its first pass when the loop left
  });

  it('delivers new bookings, every status change with `previous`, acknowledgements and new videos, covering the ground-truth change log', {
    timeout: 60_000,
  }, async () => {
    env = await startSimEnv(kind, { visitsPerWeek: 6 });
    env.sandbox.populate(env.key, { locations: 15, reservationsPerLocation: 4 });
    const client = env.client();
    const start = env.clock.now();
    // Longer waits than the defaults keep the test short: a week of simulated polls.
    const watcher = watchEvents(client, {
      checkpoint: memoryCheckpoint(),
      startFrom: 'now',
      minInterval: 60_000,
      maxInterval: 600_000,
      maxLag: 3_600_000,
    });
    let acked = 0;
    const events = await runUntil(env, watcher, start + 5 * DAY, async (e) => {
      // The handler acknowledges some bookings: the watcher reports that change too.
      if (e.type === 'reservation.created' && acked < 10) {
        acked++;
        await client.reservations.acknowledge(e.data.reservation_id, 'forwarded_to_manager');
      }
    });
    const types = new Set(events.map((e) => e.type));
    expect(types).toEqual(new Set(['reservation.created', 'reservation.updated', 'video.published']));
    const updates = events.filter((e) => e.type === 'reservation.updated');
    const transitions = new Set(updates.map((e) => `${e.previous.status ?? e.data.status}>${e.data.status}`));
    for (const t of ['pending>confirmed', 'confirmed>completed']) expect(transitions).toContain(t);
    expect(
      updates.some(
        (e) =>
          'acknowledged_kind' in e.previous &&
          e.previous.acknowledged_kind === null &&
          e.data.acknowledged_kind === 'forwarded_to_manager',
      ),
    ).toBe(true);
    for (const e of updates) {
      for (const field of Object.keys(e.previous) as Array<keyof typeof e.previous>)
        expect(e.previous[field]).not.toEqual(e.data[field]);
    }

    // Against the ground truth: every change since the start, up to the last poll, is covered.
    const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > start);
    const lastPoll = Date.parse(events.at(-1)?.created_at ?? '');
    const report = coverage(changes, events, lastPoll - 3_600_000);
    expect(report.changes).toBeGreaterThan(100);
    expect(report.missing).toEqual([]);
    expect(report.duplicates).toBe(0);
    expect(report.collapsed).toBeLessThan(report.changes * 0.05);
  });

  it('a restarted watcher redelivers only the event whose loop body did not finish, with the same id, so a consumer drops the duplicate', async () => {
    env = await startSimEnv(kind, { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 5, reservationsPerLocation: 6 });
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    const handled = new Map<string, number>();
    const first: PartnerEvent[] = [];
    for await (const event of watchEvents(client, { checkpoint })) {
      first.push(event);
      if (first.length === 12) break; // the 12th is left unfinished: not confirmed
      handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
    }
    const again: PartnerEvent[] = [];
    let dropped = 0;
    const total = env.sandbox.inspect.reservations(env.key).length;
    for await (const event of watchEvents(client, { checkpoint })) {
      again.push(event);
      if (handled.has(event.id)) dropped++;
      else handled.set(event.id, 1);
      if (handled.size >= total) break;
    }
    expect(again[0]?.id).toBe(first[11]?.id);
    expect(dropped).toBe(0);
    expect(again.filter((e) => first.slice(0, 11).some((f) => f.id === e.id))).toEqual([]);
    expect([...handled.values()].every((n) => n === 1)).toBe(true);
  });

  it('stops on the signal while idle, on break, and on client.close(), releasing the checkpoint', async () => {
    env = await startSimEnv(kind, { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const checkpoint = memoryCheckpoint();
    const client = env.client();
    const controller = new AbortController();
    const idle = watchEvents(client, { checkpoint, signal: controller.signal });
    let n = 0;
    const sleepsBefore = env.clock.sleeps.length;
    for await (const _ of idle) {
      // Once the four bookings are in, abort while the watcher idles between polls.
      if (++n === 4) {
        void (async () => {
          while (env.clock.sleeps.length < sleepsBefore + 3) await new Promise((r) => setTimeout(r, 1));
          controller.abort();
        })();
      }
    }
    expect(n).toBe(4);
    expect(idle.stats.polls).toBeGreaterThan(1);

    // The checkpoint is free again; client.close() ends the next watcher's loop.
    const other = env.client();
    const closing = watchEvents(other, { checkpoint });
    setTimeout(() => void other.close(), 50);
    const seen: PartnerEvent[] = [];
    for await (const e of closing) seen.push(e);
    expect(seen).toEqual([]);

    const aborted = new AbortController();
    aborted.abort();
    const none: PartnerEvent[] = [];
    for await (const e of watchEvents(client, { checkpoint, signal: aborted.signal })) none.push(e);
    expect(none).toEqual([]);
  });
});

describe('watchEvents() pacing', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('keeps its calls within budgetShare of the key budget in every window, leaving the rest to the app', async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 400, reservationsPerLocation: 20 });
    const client = env.client();
    const before = env.sandbox.requests.length;
    const watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), budgetShare: 0.1 });
    let appCalls = 0;
    for await (const event of watcher) {
      // The application's own calls go through the same client meanwhile.
      if (event.type === 'reservation.created' && appCalls < 40) {
        appCalls++;
        await client.locations.get(event.partner_location_id);
      }
      if (watcher.stats.reconciliations >= 1) break;
    }
    const watcherCalls = env.sandbox.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && !/^\/partner\/v1\/locations\/[^/]+$/.test(r.path));
    expect(watcherCalls.length).toBe(watcher.stats.calls);
    expect(watcher.stats.calls).toBeGreaterThan(120); // 8,000 bookings: 40 pages, plus billing and content
    const times = watcherCalls.map((r) => r.at);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= 60_000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(60); // 0.1 × 600 per minute
    expect(most).toBeGreaterThanOrEqual(55);
    expect(watcher.stats.budgetWaitMs).toBeGreaterThanOrEqual(60_000);
    expect(env.sandbox.requestCount({ status: 429 })).toBe(0);
  });

  it('polls faster while changes flow and backs off when idle: one summary call per idle poll, waits doubling up to maxInterval', async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    const client = env.client();
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 0 });
    const watcher = watchEvents(client, {
      checkpoint: memoryCheckpoint(),
      minInterval: 1_000,
      maxInterval: 16_000,
      maxLag: 3_600_000,
    });
    const iterator = watcher[Symbol.asyncIterator]();
    const first = iterator.next();
    const tick = () => new Promise((r) => setImmediate(r));
    while (env.clock.sleeps.length < 7) await tick();
    expect(env.clock.sleeps.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000]);
    const callsBefore = watcher.stats.calls;
    const pollsBefore = watcher.stats.polls;
    while (watcher.stats.polls < pollsBefore + 3) await tick();
    expect(watcher.stats.calls - callsBefore).toBe(watcher.stats.polls - pollsBefore);

    // Bookings arrive: they are delivered, and the next wait is short again.
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 3, idPrefix: 'late-' });
    const event = await first;
    expect(event.value).toMatchObject({ type: 'reservation.created', partner_location_id: 'late-000001' });
    await iterator.next();
    await iterator.next();
    const sleepsBefore = env.clock.sleeps.length;
    const next = iterator.next();
    while (env.clock.sleeps.length === sleepsBefore) await tick();
    expect(env.clock.sleeps[sleepsBefore]).toBe(1_000);
    watcher.stop();
    await next;
  });
});
