/**
 * `standby: true` without Redis: a second watcher on a memoryCheckpoint or fileCheckpoint waits for
 * the lock and goes on from the checkpoint; a stop ends the wait without an error; a checkpoint
 * without a lock is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { fileCheckpoint, memoryCheckpoint, watchEvents, type Checkpoint } from '../../src/events/index.js';
import { useSimEnv, type SimEnv } from '../events/support.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchEvents({ standby: true })', () => {
  let env: SimEnv;
  const dir = mkdtempSync(join(tmpdir(), 'crp-standby-'));
  const startSimEnv = useSimEnv();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a checkpoint without a lock, and a standby that is not a boolean', async () => {
    env = await startSimEnv('msw');
    const client = env.client();
    const noLock: Checkpoint = { load: async () => [], save: async () => undefined };
    expect(() => watchEvents(client, { checkpoint: noLock, standby: true })).toThrow(ConfigurationError);
    expect(() => watchEvents(client, { checkpoint: memoryCheckpoint(), standby: 'yes' as never })).toThrow(
      /standby must be true or false/,
    );
  });

  it.each([
    ['memoryCheckpoint', () => memoryCheckpoint()],
    ['fileCheckpoint', () => fileCheckpoint(join(dir, `c-${Math.random()}.json`))],
  ])(
    '%s: the standby waits, then goes on from the checkpoint; a stop ends a wait without an error',
    async (_, make) => {
      env = await startSimEnv('msw', { visitsPerWeek: 0 });
      env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 4 });
      const checkpoint = make();
      const a = watchEvents(env.client(), { checkpoint });
      const seenA: string[] = [];
      const iterator = a[Symbol.asyncIterator]();
      for (let i = 0; i < 5; i++) seenA.push(((await iterator.next()).value as { id: string }).id);
      const b = watchEvents(env.client(), { checkpoint, standby: true });
      const seenB: string[] = [];
      const running = (async () => {
        for await (const event of b) {
          seenB.push(event.id);
          if (seenB.length + 4 >= 12) break;
        }
      })();
      await sleep(400);
      expect(b.stats.lock).toBe('standby');
      expect(seenB).toEqual([]);
      await iterator.return?.(); // the 5th event's body did not finish: it comes again
      await running;
      expect(seenB[0]).toBe(seenA[4]);
      expect(seenB.filter((id) => seenA.slice(0, 4).includes(id))).toEqual([]);

      const holder = watchEvents(env.client(), { checkpoint });
      const holding = holder[Symbol.asyncIterator]();
      await holding.next();
      const controller = new AbortController();
      const waiting = watchEvents(env.client(), { checkpoint, standby: true, signal: controller.signal });
      const loop = (async () => {
        for await (const _event of waiting) throw new Error('a stopped standby delivered');
      })();
      await sleep(100);
      controller.abort();
      await expect(loop).resolves.toBeUndefined();
      await holding.return?.();
    },
  );
});
