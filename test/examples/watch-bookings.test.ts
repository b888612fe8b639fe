import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '@crp/partner-sdk';
import { fileCheckpoint, memoryCheckpoint } from '@crp/partner-sdk/events';
import { watchBookings } from '../../examples/watch-bookings.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

const root = resolve(import.meta.dirname, '../..');

describe('examples/watch-bookings.ts', () => {
  let env: ExampleEnv;
  let dir: string | undefined;
  const startExampleEnv = useExampleEnv();
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('forwards every new booking, logs changes and videos over three simulated days, and stops on the signal', {
    timeout: 60_000,
  }, async () => {
    env = await startExampleEnv({ seed: 4, visitsPerWeek: 10, rateLimitClock: 'simulated' });
    env.sandbox.populate(env.apiKey, { locations: 3, reservationsPerLocation: 4 });
    const controller = new AbortController();
    const end = env.sandbox.clock.now().getTime() + 3 * 86_400_000;
    const clock: Clock = {
      now: () => env.sandbox.clock.now().getTime(),
      sleep: async (ms, signal) => {
        env.sandbox.clock.advance({ ms });
        if (env.sandbox.clock.now().getTime() >= end) controller.abort();
        if (signal?.aborted) throw signal.reason;
      },
    };
    const lines: string[] = [];
    const result = await watchBookings(env.newClient({ clock }), {
      checkpoint: memoryCheckpoint(),
      signal: controller.signal,
      print: (l) => lines.push(l),
    });
    const bookings = env.sandbox.inspect.reservations(env.apiKey);
    expect(result.created).toBe(bookings.length);
    expect(result.forwarded).toBeGreaterThan(10);
    expect(result.updated).toBeGreaterThan(result.forwarded); // each forward comes back as a change, plus status changes
    expect(result.videos).toBeGreaterThan(0);
    expect(lines.join('\n')).toMatch(/booking res_\w+: acknowledged_kind null -> forwarded_to_manager/);
    expect(lines.join('\n')).toMatch(/booking res_\w+: status pending -> confirmed/);
    expect(lines.at(-1)).toMatch(/^stopped: \d+ new bookings \(\d+ forwarded\), \d+ changes, \d+ videos; \d+ calls$/);
    // Every booking that was open when first seen went to the restaurant.
    const forwarded = bookings.filter((b) => b.acknowledged_kind === 'forwarded_to_manager');
    expect(forwarded).toHaveLength(result.forwarded);
  });

  it('runs on its own (tsx, environment variables, real HTTP), resumes from its file, and exits 0 on SIGTERM', {
    timeout: 60_000,
  }, async () => {
    env = await startExampleEnv({ seed: 5 });
    env.sandbox.populate(env.apiKey, { locations: 2, reservationsPerLocation: 3 });
    dir = mkdtempSync(join(tmpdir(), 'crp-watch-'));
    const checkpoint = join(dir, 'events.json');
    const run = () =>
      new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(root, 'examples/watch-bookings.ts'), checkpoint],
          {
            cwd: root,
            env: { ...process.env, PARTNER_API_KEY: env.apiKey, PARTNER_API_BASE_URL: env.baseUrl, NODE_OPTIONS: '' },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        // Stop it a moment after its first event, as an operator would.
        child.stdout.once('data', () => setTimeout(() => child.kill('SIGTERM'), 1_500));
        child.stderr.on('data', (d: Buffer) => (out += d));
        child.on('close', (code) => done({ code, out }));
      });
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/new booking res_\w+ at pop-000001/);
    expect(first.out).toMatch(/^stopped: /m);
    // The second run goes on from the file: the bookings are not new any more.
    env.sandbox.clock.advance({ days: 2 });
    const saved = await fileCheckpoint(checkpoint).load();
    expect(saved.length).toBeGreaterThan(1);
    const second = await run();
    expect(second.code).toBe(0);
    const ids = (out: string) => [...out.matchAll(/new booking (res_\w+)/g)].map((m) => m[1]);
    const repeated = ids(second.out).filter((id) => ids(first.out).includes(id));
    expect(repeated.length).toBeLessThanOrEqual(1); // at most the event being handled at SIGTERM
    expect(second.out).toMatch(/^stopped: /m);
  });
});
