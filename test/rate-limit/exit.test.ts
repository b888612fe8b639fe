import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redisServerAvailable, useRedisServer } from '../helpers/redis-server.js';

const fixture = fileURLToPath(new URL('./fixtures/exit-after-close.ts', import.meta.url));

/** Run the fixture; resolves with its exit code and output, or 'still running' after `limitMs`. */
function runFixture(
  args: string[],
  limitMs: number,
): Promise<{ code: number | 'still running'; stdout: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'still running', stdout, ms: Date.now() - started });
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) console.error(stderr);
      resolve({ code: code ?? -1, stdout, ms: Date.now() - started });
    });
  });
}

describe('close() leaves nothing that keeps the process alive', () => {
  it('lets the process exit at once after close(), with calls still waiting for the next window', async () => {
    const result = await runFixture(['-', 'close'], 8000);
    expect(result.stdout).toContain('sent 2');
    expect(result.code).toBe(0);
  });

  it('keeps the process alive while calls wait for the next window and close() was not called', async () => {
    // The counterpart of the test above: waiting calls hold the process, so its exit is close()'s doing.
    const result = await runFixture(['-', 'no-close'], 4000);
    expect(result.code).toBe('still running');
  });

  describe.skipIf(!redisServerAvailable())('with Redis', () => {
    const redis = useRedisServer();

    it('disconnects the limiter and its Redis connections so the process exits', async () => {
      const result = await runFixture([redis.url, 'close'], 8000);
      expect(result.stdout).toContain('sent 2');
      expect(result.code).toBe(0);
    });
  });
});
