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
  done: number;
  logged: string[];
}

function startWorker(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
} {
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
    // From the first request the server saw to the last: process start-up (tsx, Redis) is not the budget's doing.
    const seen = sandbox.requests.filter((r) => r.path === '/partner/v1/summary').map((r) => r.at);
    const elapsed = Math.max(...seen) - Math.min(...seen);
    const ideal = ((WORKERS * CALLS) / LIMIT) * WINDOW_MS;
    console.info(
      `shared budget: ${WORKERS * CALLS} calls in ${elapsed} ms; ideal ${ideal} ms; ratio ${(elapsed / ideal).toFixed(3)}`,
    );
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    expect(sandbox.requestCount({ status: 429 })).toBe(0);
    expect(sandbox.requestCount({ path: '/partner/v1/summary', status: 200 })).toBe(WORKERS * CALLS);
    expect(elapsed).toBeLessThanOrEqual(ideal * 1.1);
  }, 60_000);

  it('a job goes on while its redis-server is killed and restarted: every call settles, none is lost, one warning per process, each exits by itself', async () => {
    const limit = 40;
    const windowMs = 2000;
    const calls = 50;
    const faultKey = sandbox.issueKey({ rateLimit: { limit, windowMs } });
    const restartable = (await startRedisServer())!;
    const workers = Array.from({ length: WORKERS }, () =>
      startWorker({
        BASE_URL: url,
        API_KEY: faultKey,
        REDIS_URL: restartable.url,
        CALLS: String(calls),
        CONCURRENCY: '4',
        MAX_RETRIES: '2',
      }),
    );
    let restarted: RedisServer | undefined;
    try {
      for (const w of workers) expect((await w.lines.next()).value).toBe('ready');
      const before429 = sandbox.requestCount({ status: 429 });
      for (const w of workers) w.child.stdin.write('go\n');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await restartable.kill();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      restarted = await startRedisServer(restartable.port);
      const results: WorkerResult[] = [];
      for (const w of workers) {
        const line = await w.lines.next();
        results.push(JSON.parse(line.value as string) as WorkerResult);
      }
      const exits = await Promise.all(
        workers.map((w) =>
          w.child.exitCode !== null
            ? w.child.exitCode
            : Promise.race([
                once(w.child, 'exit').then(([code]) => code as number),
                new Promise((r) => setTimeout(() => r('still running'), 3000)),
              ]),
        ),
      );
      expect(exits).toEqual(Array(WORKERS).fill(0));
      expect(results.flatMap((r) => r.errors)).toEqual([]);
      expect(results.map((r) => r.done)).toEqual(Array(WORKERS).fill(calls));
      // Each process noticed the outage once (one warning) and, if still running when Redis came back, said so.
      for (const r of results) expect(r.logged.filter((l) => l.startsWith('warn'))).toHaveLength(1);
      console.info(
        `redis killed and restarted mid-job: ${sandbox.requestCount({ status: 429 }) - before429} × 429; logged ${JSON.stringify(results.map((r) => r.logged.length))}`,
      );
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
      await restarted?.stop();
    }
  }, 60_000);
});
