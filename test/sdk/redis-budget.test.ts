import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError, PartnerClient, type ClientOptions } from '@crp/partner-sdk';
import { redisBudget, type RedisConnection } from '@crp/partner-sdk/redis';

const KEY = 'crp_test_0123456789abcdef';
const BASE = 'https://api.example.com';

function refusal(run: () => unknown): ConfigurationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError');
}

/** Looks like an ioredis client; `duplicate` would be the SDK's first use of it. */
function fakeClient() {
  return { status: 'ready', duplicate: vi.fn(() => ({})) };
}

describe('rateLimit.shared and redisBudget()', () => {
  it('refuses a rateLimit.shared that redisBudget() did not make, naming it', () => {
    for (const shared of ['redis://127.0.0.1:6379', { store: 'redis' }, fakeClient()]) {
      const options = { apiKey: KEY, baseUrl: BASE, rateLimit: { shared } } as unknown as ClientOptions;
      expect(refusal(() => new PartnerClient(options)).message).toMatch(
        /rateLimit\.shared takes a budget made by redisBudget\(\) from '@crp\/partner-sdk\/redis'/,
      );
    }
  });

  it('refuses a string that is not a redis:// or rediss:// URL, without echoing it', () => {
    expect(refusal(() => redisBudget('http://x')).message).toBe(
      'redisBudget() takes a redis:// or rediss:// URL; got a URL starting with http:.',
    );
    expect(refusal(() => redisBudget('127.0.0.1:6379')).message).toMatch(/got a string that is not a URL/);
    expect(refusal(() => redisBudget('https://user:s3cret@cache.example.com')).message).not.toContain('s3cret');
  });

  it('refuses what is neither an ioredis client, ioredis options nor a URL', () => {
    // A node-redis client (`createClient()`) has `duplicate` too, but not ioredis's `status`.
    const nodeRedis = new (class RedisClient {
      duplicate() {
        return this;
      }
    })();
    const bad: unknown[] = [
      42,
      null,
      undefined,
      true,
      ['redis://x'],
      new URL('redis://127.0.0.1'),
      nodeRedis,
      () => 'redis://x',
    ];
    for (const value of bad) {
      expect(refusal(() => redisBudget(value as RedisConnection)).message).toMatch(
        /^redisBudget\(\) takes an ioredis client .*, ioredis options .* or a redis:\/\/ URL; got /,
      );
    }
    expect(refusal(() => redisBudget(42 as unknown as RedisConnection)).message).toMatch(/got 42\.$/);
    expect(refusal(() => redisBudget(new URL('redis://127.0.0.1') as unknown as RedisConnection)).message).toMatch(
      /got an instance of URL\.$/,
    );
    expect(refusal(() => redisBudget(nodeRedis as unknown as RedisConnection)).message).toMatch(
      /got an instance of RedisClient\.$/,
    );
  });

  it('accepts an ioredis client, options or a URL, and connects nothing before the first call', async () => {
    const client = fakeClient();
    const fetch = vi.fn<typeof globalThis.fetch>();
    for (const redis of [
      client,
      { host: '127.0.0.1', port: 6379 },
      'redis://127.0.0.1:6379',
      'REDISS://cache.example.com:6380',
    ]) {
      const shared = redisBudget(redis);
      expect(shared.store).toBe('redis');
      const partner = new PartnerClient({ apiKey: KEY, baseUrl: BASE, fetch, rateLimit: { shared } });
      await partner.close();
    }
    expect(client.duplicate).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });
});
