/**
 * redisBudget() loads ioredis and Bottleneck on the client's first call. When one cannot be loaded,
 * the ConfigurationError says whether it is missing or installed but broken, and keeps the
 * loader's error as `cause`; the client goes on with a local budget and says so once.
 */
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError, PartnerClient } from '@crp/partner-sdk';
import { redisBudget } from '@crp/partner-sdk/redis';
import { loadPackage } from '../../src/redis/sharing.js';
import { createSandbox } from '../../src/testing/index.js';

const BROKEN = new URL('./fixtures/broken-package.mjs', import.meta.url).href;

async function refusal(loading: Promise<unknown>): Promise<ConfigurationError> {
  const error = await loading.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

describe('loading the packages of a shared budget', () => {
  it('a package that is not installed: "not installed: npm install …", the loader\'s error as cause', async () => {
    const error = await refusal(loadPackage('crp-package-not-installed'));
    expect(error.message).toBe(
      'redisBudget() needs the package crp-package-not-installed, which is not installed: npm install crp-package-not-installed',
    );
    expect((error.cause as { code?: string }).code).toMatch(/MODULE_NOT_FOUND/);
    expect(error.code).toBe('configuration_error');
  });

  it('a package installed but broken (a dependency of its own missing): said so, with the reason, and the cause', async () => {
    const error = await refusal(
      loadPackage('ioredis', (specifier) => (expect(specifier).toBe('ioredis'), import(/* @vite-ignore */ BROKEN))),
    );
    expect(error.message).toMatch(
      /^redisBudget\(\) needs the package ioredis, which is installed but failed to load \(.*crp-dependency-that-was-never-installed.*\); reinstall it/,
    );
    expect(error.message).not.toContain('not installed');
    expect(String((error.cause as Error).message)).toContain('crp-dependency-that-was-never-installed');
  });

  it('a package whose code throws while loading: broken, not missing', async () => {
    const thrown = new TypeError('Cannot read properties of undefined (reading "Redis")');
    const error = await refusal(loadPackage('bottleneck', () => Promise.reject(thrown)));
    expect(error.message).toContain('which is installed but failed to load (Cannot read properties of undefined');
    expect(error.cause).toBe(thrown);
  });

  it('loads what is there', async () => {
    const ioredis = await loadPackage<typeof import('ioredis')>('ioredis');
    expect(typeof ioredis.Redis).toBe('function');
  });

  it('a client whose ioredis is broken goes on with a local budget, and its one warning says broken, not missing; never the key', async () => {
    const sandbox = createSandbox({ seed: 5 });
    const apiKey = sandbox.issueKey();
    const { url, close } = await sandbox.listen(0);
    vi.doMock('ioredis', () => {
      throw new Error('ioredis failed while loading: bad build');
    });
    try {
      const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
      const client = new PartnerClient({
        apiKey,
        baseUrl: url,
        logger: {
          warn: (message, fields) => void warnings.push(fields === undefined ? { message } : { message, fields }),
        },
        rateLimit: { shared: redisBudget('redis://127.0.0.1:6379', { timeoutMs: 200 }) },
      });
      const summary = await client.reports.summary();
      expect(summary.locations).toMatchObject({ total: expect.any(Number) });
      await client.close();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toMatch(/Redis is unreachable; going on with a local budget/);
      // (vitest wraps the module's own error in one of its own.)
      expect(String(warnings[0]?.fields?.error)).toMatch(
        /needs the package ioredis, which is installed but failed to load \(.+\); reinstall it/,
      );
      expect(JSON.stringify(warnings)).not.toContain(apiKey);
    } finally {
      vi.doUnmock('ioredis');
      await close();
    }
  });
});
