import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, PartnerError } from '../../src/index.js';
import {
  CheckpointInvalidError,
  CheckpointLockedError,
  fileCheckpoint,
  memoryCheckpoint,
  watchEvents,
  type Checkpoint,
} from '../../src/events/index.js';
import { checkpointFiles, take } from './checkpoint-files.js';
import { useSimEnv, type SimEnv } from './support.js';

const { fresh } = checkpointFiles('crp-checkpoint-');

describe('fileCheckpoint', () => {
  it('adds one line per record and replaces them all atomically with a snapshot; a line cut short by a crash is not read', async () => {
    const path = fresh();
    const cp = fileCheckpoint(path);
    expect(await cp.load()).toEqual([]);
    await cp.save('{"a":1}', { replace: true });
    await cp.save('["x"]');
    await cp.save('["y"]');
    expect(await cp.load()).toEqual(['{"a":1}', '["x"]', '["y"]']);
    appendFileSync(path, '["z", "cut sho');
    expect(await cp.load()).toEqual(['{"a":1}', '["x"]', '["y"]']);
    await cp.save('{"b":2}', { replace: true });
    expect(readFileSync(path, 'utf8')).toBe('{"b":2}\n');
    await expect(cp.save('two\nlines')).rejects.toThrow(/single line/);
    const durable = fileCheckpoint(path, { fsync: true });
    await durable.save('["w"]');
    expect(await durable.load()).toEqual(['{"b":2}', '["w"]']);
  });

  it('refuses a second lock in this process, and in another live process, with CheckpointLockedError; takes over the lock of a killed process', async () => {
    const path = fresh();
    const release = await fileCheckpoint(path).lock!();
    const second = await fileCheckpoint(path).lock!().catch((e: unknown) => e);
    expect(second).toBeInstanceOf(CheckpointLockedError);
    expect(second).toBeInstanceOf(PartnerError);
    expect(second).toMatchObject({
      code: 'checkpoint_locked',
      message: expect.stringMatching(/another watcher in this process.*would deliver every event twice/s),
    });
    await release();

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/events/fixtures/hold-lock.ts', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve()),
    );
    const refused = await fileCheckpoint(path).lock!().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckpointLockedError);
    expect((refused as CheckpointLockedError).holderPid).toBe(child.pid);
    expect((refused as Error).message).toContain(`process ${child.pid}`);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const takeover = await fileCheckpoint(path).lock!();
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await takeover();
  });
});

describe('watchers and checkpoints', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it('a second watcher on the same checkpoint refuses (file, memory or your own), while the first goes on', async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 5 });
    const client = env.client();
    const path = fresh();
    const own: Checkpoint = { load: async () => [], save: async () => {} };
    for (const [a, b] of [
      [fileCheckpoint(path), fileCheckpoint(path)],
      [memoryCheckpoint(), undefined],
      [own, own],
    ] as Array<[Checkpoint, Checkpoint | undefined]>) {
      const first = watchEvents(client, { checkpoint: a })[Symbol.asyncIterator]();
      expect((await first.next()).done).toBe(false);
      const again = watchEvents(client, { checkpoint: b ?? a });
      await expect(take(again, 1)).rejects.toThrow(CheckpointLockedError);
      expect((await first.next()).done).toBe(false);
      await first.return?.();
    }
    // Released: a new watcher on the file resumes after the two confirmed events.
    const resumed = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 1);
    expect(resumed).toHaveLength(1);
  });

  it('resumes from a fileCheckpoint after a restart, and the file stays small: one snapshot plus a line per event', async () => {
    env = await startSimEnv('http', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 4, reservationsPerLocation: 10 });
    const client = env.client();
    const path = fresh();
    const first = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 15);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    // The month the watcher counts videos in, then one line per confirmed event (the 15th was left with break).
    expect(lines.length).toBe(1 + 14);
    expect(lines.every((line) => line.length < 400)).toBe(true);
    const total =
      env.sandbox.inspect.reservations(env.key).length +
      env.sandbox.inspect
        .stores(env.key)
        .reduce((sum, s) => sum + env.sandbox.inspect.videos(env.key, s.partner_location_id).length, 0);
    const rest = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), total - 14);
    expect(rest[0]?.id).toBe(first[14]?.id);
    expect(new Set([...first.slice(0, 14), ...rest].map((e) => e.id)).size).toBe(total);
  });

  it('refuses a checkpoint it cannot read with CheckpointInvalidError', async () => {
    env = await startSimEnv('msw');
    const path = fresh();
    writeFileSync(path, '{"something":"else"}\n');
    await expect(take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 1)).rejects.toThrow(
      CheckpointInvalidError,
    );
    writeFileSync(path, 'not json\n["b"]\n');
    await expect(take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 1)).rejects.toMatchObject({
      code: 'checkpoint_invalid',
    });
  });

  it('refuses wrong options before any request, saying what to change', async () => {
    env = await startSimEnv('msw');
    const client = env.client();
    const checkpoint = memoryCheckpoint();
    const bad: Array<[unknown, RegExp]> = [
      [{}, /needs a checkpoint/],
      [{ checkpoint, budgetShare: 0 }, /budgetShare must be a number above 0 and at most 1/],
      [{ checkpoint, budgetShare: 1.5 }, /budgetShare/],
      [{ checkpoint, maxLag: -1 }, /maxLag must be a positive number of milliseconds/],
      [{ checkpoint, minInterval: 10_000, maxInterval: 5_000 }, /minInterval <= maxInterval <= maxLag/],
      [{ checkpoint, startFrom: 'yesterday' }, /startFrom must be 'beginning' or 'now'/],
      [{ checkpoint, pollEvery: 5 }, /no option "pollEvery"/],
    ];
    for (const [options, message] of bad) {
      expect(() => watchEvents(client, options as never)).toThrow(ConfigurationError);
      expect(() => watchEvents(client, options as never)).toThrow(message);
    }
    // The first argument of the old client.events.watch(options), moved here by mistake.
    for (const notClient of [undefined, { checkpoint }, { reports: {}, clock: client.clock }]) {
      expect(() => watchEvents(notClient as never, { checkpoint })).toThrow(
        new ConfigurationError(
          'watchEvents(client, options) takes the PartnerClient to watch through as its first argument.',
        ),
      );
    }
    expect(env.sandbox.requests).toHaveLength(0);
  });
});
