/**
 * `crp events tail --checkpoint redis://… --standby` as two replicas against crp-sandbox: the
 * second waits while the first runs, and goes on from the checkpoint when the first is stopped.
 * The replicas run in process: what keeps them apart is the checkpoint in Redis, not the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, crp, startCrp, until } from '../cli/in-process.js';
import { startCrpSandbox, type CrpSandbox } from '../cli/processes.js';
import { REDIS_SKIP_MESSAGE, redisServerAvailable, useRedisServer } from '../helpers/redis-server.js';

const available = redisServerAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('crp events tail, checkpoint options', () => {
  it('refuses --checkpoint-key without a Redis checkpoint, and --standby without a checkpoint', async () => {
    const env = { PATH: process.env.PATH, PARTNER_API_KEY: 'crp_test_x', PARTNER_API_BASE_URL: 'http://127.0.0.1:9' };
    const a = await crp(['events', 'tail', '--checkpoint', 'file.checkpoint', '--checkpoint-key', 'k'], env);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('--checkpoint-key names a checkpoint in Redis');
    const b = await crp(['events', 'tail', '--standby'], env);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('--standby waits for a checkpoint');
  });
});

describe.skipIf(!available)('crp events tail on a Redis checkpoint, as replicas', () => {
  const redis = useRedisServer();
  let sandbox: CrpSandbox;
  beforeAll(async () => {
    sandbox = await startCrpSandbox(['--advance-every-ms', '40', '--advance-minutes', '600']);
    // Stores, so that bookings come.
    const enrolled = await crp(['enroll', join(ROOT, 'examples/data/stores.csv')], sandbox.env);
    expect(enrolled.code, enrolled.stderr + enrolled.stdout).toBeLessThan(3);
  }, 60_000);
  afterAll(() => sandbox?.stop());

  it('a standby prints nothing while the first runs, then takes over from the checkpoint when it stops', async () => {
    const args = ['events', 'tail', '--checkpoint', redis.url, '--checkpoint-key', 'cli', '--standby'];
    const first = startCrp(args, sandbox.env);
    await until(
      () => lines(first.stdout()).length > 0,
      30_000,
      () => 'timed out waiting for the first replica to print an event',
    );
    const second = startCrp(args, sandbox.env);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(second.stdout()).toBe('');
    first.signal('SIGINT');
    const firstRun = await first.finished;
    expect(firstRun.code).toBe(0);
    await until(
      () => lines(second.stdout()).length > 0,
      30_000,
      () => 'timed out waiting for the standby to take over',
    );
    second.signal('SIGINT');
    const run = await second.finished;
    expect(run.code).toBe(0);
    // It went on from the checkpoint: nothing the first printed (and confirmed) comes again.
    const firstIds = new Set(lines(firstRun.stdout).map((l) => (JSON.parse(l) as { id: string }).id));
    const again = lines(run.stdout).filter((l) => firstIds.has((JSON.parse(l) as { id: string }).id));
    expect(again.length).toBeLessThanOrEqual(1);
  }, 60_000);
});
