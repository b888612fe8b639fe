import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { REDIS_SKIP_MESSAGE, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const WORKERS = 4;
const CALLS = 60;
const LIMIT = 60;
const WINDOW_MS = 5_000;

interface WorkerResult {
  started: number;
  finished: number;
  errors: unknown[];
}

function startWorker(env: Record<string, string>): { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/budget-worker.ts'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

const redis = await startRedisServer();

describe.skipIf(!redis)(`a key's budget shared by ${WORKERS} processes through Redis`, () => {
  if (!redis) console.warn(REDIS_SKIP_MESSAGE);
  let server: RedisServer;
  const sandbox = createSandbox({ seed: 3 });
  const key = sandbox.issueKey({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    server = redis!;
    ({ url, close } = await sandbox.listen(0));
  });
  afterAll(async () => {
    await close?.();
    await server?.stop();
  });

  it(`finishes ${WORKERS} × ${CALLS} calls at ${LIMIT} per ${WINDOW_MS / 1000} s with zero 429 and within 1.1 × the ideal time`, async () => {
    const workers = Array.from({ length: WORKERS }, () =>
      startWorker({ BASE_URL: url, API_KEY: key, REDIS_URL: server.url, CALLS: String(CALLS), CONCURRENCY: '8' }),
    );
    for (const w of workers) expect((await w.lines.next()).value).toBe('ready');
    for (const w of workers) w.child.stdin.write('go\n');
    const results: WorkerResult[] = [];
    for (const w of workers) {
      const line = await w.lines.next();
      results.push(JSON.parse(line.value as string) as WorkerResult);
      if (w.child.exitCode === null) await once(w.child, 'exit');
    }
    const elapsed = Math.max(...results.map((r) => r.finished)) - Math.min(...results.map((r) => r.started));
    const ideal = ((WORKERS * CALLS) / LIMIT) * WINDOW_MS;
    console.info(`shared budget: ${WORKERS * CALLS} calls in ${elapsed} ms; ideal ${ideal} ms; ratio ${(elapsed / ideal).toFixed(3)}`);
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    expect(sandbox.requestCount({ status: 429 })).toBe(0);
    expect(sandbox.requestCount({ path: '/partner/v1/summary', status: 200 })).toBe(WORKERS * CALLS);
    expect(elapsed).toBeLessThanOrEqual(ideal * 1.1);
  }, 60_000);
});
