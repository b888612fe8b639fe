/**
 * A throwaway real redis-server on a free loopback port, for tests that share a rate-limit budget
 * between processes. Returns undefined when redis-server is not installed, so a test can skip with
 * a clear message; with CRP_REQUIRE_REDIS=1 (CI) a missing redis-server is an error instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would: no goodbye to the clients. */
  kill(): Promise<void>;
}

export const REDIS_SKIP_MESSAGE =
  'redis-server is not on PATH: Redis tests skipped (install it, e.g. apt-get install redis-server; CI sets CRP_REQUIRE_REDIS=1)';

export function redisServerAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found && process.env.CRP_REQUIRE_REDIS === '1') {
    throw new Error('CRP_REQUIRE_REDIS=1 but redis-server is not on PATH');
  }
  return found;
}

/**
 * Start redis-server on a free port, or on `port` (to restart one that was killed). With `dir`, it
 * persists to an append-only file there (each write synced), so a restart on the same `dir` keeps
 * the data, as a production Redis holding checkpoints must. With `debug`, DEBUG (e.g. DEBUG SLEEP,
 * a server that stops answering for a while) is allowed from loopback (Redis 7 and later).
 */
export async function startRedisServer(
  port?: number,
  { dir, debug = false }: { dir?: string; debug?: boolean } = {},
): Promise<RedisServer | undefined> {
  if (!redisServerAvailable()) return undefined;
  port ??= await freePort();
  const persistence = dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] : ['--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      ...persistence,
      ...(debug ? ['--enable-debug-command', 'local'] : []),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * In a `describe` (skipped when redis-server is missing): one redis-server for its tests, started
 * before the first and stopped after the last. Read it inside a test.
 */
export function useRedisServer(options: { debug?: boolean } = {}): RedisServer {
  let started: RedisServer | undefined;
  const current = (): RedisServer => {
    if (!started) throw new Error('useRedisServer: redis-server starts in beforeAll; use it inside a test');
    return started;
  };
  beforeAll(async () => {
    started = await startRedisServer(undefined, options);
    if (!started) throw new Error(REDIS_SKIP_MESSAGE);
  });
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
    stop: () => current().stop(),
    kill: () => current().kill(),
  };
}

/** A port free on the loopback interface now (the Postgres helper uses it too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
