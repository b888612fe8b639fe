import { describe, expect, it } from 'vitest';
import { memoryCheckpoint, type PartnerEvent } from '../../src/index.js';
import { startSimEnv } from './support.js';

describe('smoke', () => {
  it('runs', async () => {
    const env = await startSimEnv('msw');
    env.sandbox.populate(env.key, { locations: 20, reservationsPerLocation: 10 });
    const client = env.client();
    const events: PartnerEvent[] = [];
    const end = env.sandbox.clock.now().getTime() + 3 * 86_400_000;
    const watcher = client.events.watch({ checkpoint: memoryCheckpoint() });
    for await (const e of watcher) {
      events.push(e);
      if (env.sandbox.clock.now().getTime() > end) break;
    }
    console.log(watcher.stats, events.length, events.slice(0, 2), env.clock.sleeps.slice(0, 20));
    await env.close();
    expect(events.length).toBeGreaterThan(200);
  });
});
