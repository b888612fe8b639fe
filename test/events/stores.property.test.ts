/**
 * The store family under random histories and restarts (fast-check): stores paused, resumed,
 * renamed and enrolled at random times while visits go on, the watcher stopped after a random
 * number of events and started again on the same checkpoint. After the last change and one
 * `refreshMs`, the last `location.updated` of every store shows the service's status and name, and
 * each event delivered after its store's first was a change from the one before it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type LocationUpdatedEvent, type Watcher } from '../../src/events/index.js';
import type { PartnerEventWithStores } from '../../src/events/index.js';
import { startSimEnv } from './support.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RUNS = Number(process.env.FC_NUM_RUNS ?? 6);

type Op = { at: number; kind: 'pause' | 'resume' | 'rename' | 'enroll'; store: number };

const op = fc.record({
  at: fc.integer({ min: 1, max: 180 }),
  kind: fc.constantFrom('pause', 'resume', 'rename', 'enroll') as fc.Arbitrary<Op['kind']>,
  store: fc.integer({ min: 0, max: 3 }),
});

describe('the store family, random histories and restarts', () => {
  it('every store ends as the service has it, each event a change', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
        async (ops, restarts) => {
          const env = await startSimEnv('msw', { now: '2026-11-10T12:00:00Z', visitsPerWeek: 5 });
          try {
            env.sandbox.populate(env.key, { locations: 4, reservationsPerLocation: 2 });
            const ids = env.sandbox.inspect.stores(env.key).map((s) => s.partner_location_id);
            const start = env.clock.now();
            const end = start + 4 * HOUR;
            const pending = [...ops].sort((a, b) => a.at - b.at);
            let enrolled = 0;
            const app = env.client();
            const apply = async (o: Op) => {
              const id = ids[o.store] as string;
              if (o.kind === 'enroll') {
                const store = `new-${++enrolled}`;
                await app.locations.enroll({
                  partner_location_id: store,
                  name: store,
                  address: {
                    line1: '1 Main St',
                    city: 'Springfield',
                    state: 'IL',
                    postal_code: '62701',
                    country: 'US',
                  },
                });
              } else if (o.kind === 'rename') await app.locations.update(id, { name: `${id} at ${o.at}` });
              else await app.locations[o.kind](id).catch(() => undefined);
            };
            let watcher: Watcher<PartnerEventWithStores> | undefined;
            const client = env.client({
              fetch: async (input, init) => {
                const request = new Request(input, init);
                if (request.url.endsWith('/summary')) {
                  while (pending.length > 0 && env.clock.now() >= start + (pending[0] as Op).at * MINUTE)
                    await apply(pending.shift() as Op);
                  if (env.clock.now() >= end) watcher?.stop();
                }
                return fetch(request);
              },
            });
            const checkpoint = memoryCheckpoint();
            const last = new Map<string, LocationUpdatedEvent>();
            const stops = [...restarts];
            while (env.clock.now() < end) {
              watcher = watchEvents(client, { checkpoint, stores: { refreshMs: HOUR } });
              const stopAfter = stops.shift();
              let n = 0;
              for await (const event of watcher) {
                if (event.type === 'location.updated') {
                  const before = last.get(event.partner_location_id);
                  // A restart may bring the event in hand again: the same id, nothing new.
                  if (before?.id !== event.id) {
                    if (before) expect(event.data).not.toEqual(before.data);
                    if (before && before.data.status !== event.data.status)
                      expect(event.previous).toEqual({ status: before.data.status });
                    last.set(event.partner_location_id, event);
                  }
                }
                if (stopAfter !== undefined && ++n >= stopAfter) break;
              }
            }
            const service = env.sandbox.inspect.stores(env.key);
            expect([...last.keys()].sort()).toEqual(service.map((s) => s.partner_location_id).sort());
            for (const store of service) {
              const event = last.get(store.partner_location_id);
              expect([event?.data.status, event?.data.name], store.partner_location_id).toEqual([
                store.status,
                store.name,
              ]);
            }
          } finally {
            await env.close();
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
