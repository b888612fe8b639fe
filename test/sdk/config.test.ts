import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, PartnerClient } from '../../src/index.js';

const KEY = 'crp_test_0123456789abcdef';

function refusal(options: ConstructorParameters<typeof PartnerClient>[0]): ConfigurationError {
  try {
    new PartnerClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError');
}

describe('PartnerClient configuration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('tells the environment from the key prefix', () => {
    expect(new PartnerClient({ apiKey: KEY, baseUrl: 'https://api.example.com' }).environment).toBe('sandbox');
    expect(new PartnerClient({ apiKey: 'crp_live_abc', baseUrl: 'https://api.example.com' }).environment).toBe(
      'production',
    );
  });

  it('reads the key and base URL from the environment by default', () => {
    vi.stubEnv('PARTNER_API_KEY', KEY);
    vi.stubEnv('PARTNER_API_BASE_URL', 'https://api.example.com');
    expect(new PartnerClient().environment).toBe('sandbox');
  });

  it('refuses a missing key and says where to put one', () => {
    vi.stubEnv('PARTNER_API_KEY', '');
    expect(refusal({ baseUrl: 'https://api.example.com' }).message).toMatch(/PARTNER_API_KEY/);
  });

  it('refuses a key that is not a partner key, without echoing it', () => {
    const error = refusal({ apiKey: 'sk_secret_value', baseUrl: 'https://api.example.com' });
    expect(error.message).toMatch(/crp_live_.*crp_test_/);
    expect(error.message).not.toContain('sk_secret_value');
  });

  it('refuses a missing base URL', () => {
    vi.stubEnv('PARTNER_API_BASE_URL', '');
    expect(refusal({ apiKey: KEY }).message).toMatch(/baseUrl/);
  });

  it('refuses plain http except on loopback', () => {
    expect(refusal({ apiKey: KEY, baseUrl: 'http://api.example.com' }).message).toMatch(/https/);
    expect(() => new PartnerClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:4010' })).not.toThrow();
    expect(() => new PartnerClient({ apiKey: KEY, baseUrl: 'http://localhost:4010' })).not.toThrow();
    expect(() => new PartnerClient({ apiKey: KEY, baseUrl: 'http://[::1]:4010' })).not.toThrow();
  });

  it('refuses a base URL that already ends in /partner/v1 and shows the fix', () => {
    expect(refusal({ apiKey: KEY, baseUrl: 'https://api.example.com/partner/v1' }).message).toContain(
      'https://api.example.com',
    );
  });

  it('refuses an environment option that contradicts the key', () => {
    expect(refusal({ apiKey: KEY, baseUrl: 'https://api.example.com', environment: 'production' }).message).toMatch(
      /sandbox key/,
    );
  });

  it('refuses maxRetries outside 0..10 and a non-positive timeout', () => {
    expect(refusal({ apiKey: KEY, baseUrl: 'https://api.example.com', maxRetries: 11 }).message).toMatch(/0 to 10/);
    expect(refusal({ apiKey: KEY, baseUrl: 'https://api.example.com', timeout: 0 }).message).toMatch(/timeout/);
  });

  it('refuses a bad per-call timeout or maxRetries without sending', async () => {
    const client = new PartnerClient({
      apiKey: KEY,
      baseUrl: 'https://api.example.com',
      fetch: () => Promise.reject(new Error('sent')),
    });
    await expect(client.reports.summary({ timeout: -5 })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(client.reports.summary({ maxRetries: 1.5 })).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('refuses to start in a browser unless dangerouslyAllowBrowser is set, because the key would be exposed', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    const error = refusal({ apiKey: KEY, baseUrl: 'https://api.example.com' });
    expect(error.message).toMatch(/browser/);
    expect(error.message).toMatch(/exposed/);
    expect(
      () => new PartnerClient({ apiKey: KEY, baseUrl: 'https://api.example.com', dangerouslyAllowBrowser: true }),
    ).not.toThrow();
  });

  it('never shows the key when the client is inspected or serialised', async () => {
    const { inspect } = await import('node:util');
    const client = new PartnerClient({ apiKey: KEY, baseUrl: 'https://api.example.com' });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});

describe('options that would break the transport are refused at construction', () => {
  const BASE = 'https://api.example.com';

  it.each([
    ['CR LF', `${KEY}\r\nX-Injected: 1`],
    ['a trailing newline', `${KEY}\n`],
    ['NUL', `${KEY}\u0000`],
  ])('a key with %s is refused by a ConfigurationError that does not repeat it', (_name, apiKey) => {
    const error = refusal({ apiKey, baseUrl: BASE });
    expect(error.message).toMatch(/line break, NUL or other control character/);
    const shown = [error.message, error.stack, JSON.stringify(error.toJSON())].join('\n');
    expect(shown).not.toContain(KEY);
  });

  it.each([
    ['timeout', { timeout: 3e9 }],
    ['timeout', { timeout: 0 }],
    ['rateLimit.maxRetryAfter', { rateLimit: { maxRetryAfter: 2 ** 31 } }],
  ])('refuses %s beyond what a timer can hold, or not positive', (name, options) => {
    expect(refusal({ apiKey: KEY, baseUrl: BASE, ...options }).message).toContain(
      `The option ${name} must be a positive number of milliseconds, at most 2147483647`,
    );
  });

  it.each([
    ['timout', { timout: 5 }, /Unknown option timout\. Known options: apiKey, baseUrl/],
    [
      'rateLimit.redis',
      { rateLimit: { redis: 'redis://x' } },
      /Unknown option rateLimit\.redis\. Known options: rateLimit\.shared, rateLimit\.maxRetryAfter/,
    ],
    ['hooks.beforeRetry', { hooks: { beforeRetry: [] } }, /Unknown option hooks\.beforeRetry/],
    [
      'hooks.beforeRequest not functions',
      { hooks: { beforeRequest: ['x'] } },
      /hooks\.beforeRequest must be an array of functions/,
    ],
    ['maxResponseBytes', { maxResponseBytes: 1.5 }, /maxResponseBytes must be a positive whole number of bytes/],
  ])('refuses %s, naming it', (_name, options, message) => {
    expect(refusal({ apiKey: KEY, baseUrl: BASE, ...(options as object) }).message).toMatch(message);
  });

  it('refuses an unknown per-call option, naming it, before sending', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const client = new PartnerClient({ apiKey: KEY, baseUrl: BASE, fetch });
    const error = await client.reports.summary({ timeuot: 5 } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/Unknown option timeuot\. Known options: signal, timeout, maxRetries/);
    await expect(client.reports.summary({ timeout: 3e9 })).rejects.toBeInstanceOf(ConfigurationError);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('each construction refusal says exactly what to change', () => {
  const base = { apiKey: KEY, baseUrl: 'https://api.example.com' };
  it.each([
    [
      { ...base, environment: 'production' as const },
      "The option environment: 'production' contradicts the API key, which is a sandbox key (crp_test_…). Use a production key or drop the option.",
    ],
    [
      { ...base, apiKey: 'crp_live_x', environment: 'sandbox' as const },
      "The option environment: 'sandbox' contradicts the API key, which is a production key (crp_live_…). Use a sandbox key or drop the option.",
    ],
    [
      { ...base, apiKey: `${KEY}\n` },
      'The API key contains a line break, NUL or other control character, so it cannot be sent in a header. Check how the secret is loaded (a trailing newline from a file is common).',
    ],
    [
      { ...base, apiKey: 'sk_live_1' },
      'The API key is not a partner key: it must start with crp_live_ (production) or crp_test_ (sandbox). Check that the right secret is configured.',
    ],
    [
      { ...base, baseUrl: 'api.example.com' },
      'The base URL "api.example.com" is not an absolute URL such as https://api.example.com.',
    ],
    [
      { ...base, baseUrl: 'https://api.example.com/?region=eu' },
      'The base URL must not carry a query, a fragment or credentials.',
    ],
    [
      { ...base, baseUrl: 'https://api.example.com/#top' },
      'The base URL must not carry a query, a fragment or credentials.',
    ],
    [
      { ...base, baseUrl: 'https://me@api.example.com' },
      'The base URL must not carry a query, a fragment or credentials.',
    ],
    [
      { ...base, baseUrl: 'https://:pw@api.example.com' },
      'The base URL must not carry a query, a fragment or credentials.',
    ],
    [
      { ...base, baseUrl: 'https://api.example.com/crp/partner/v1//' },
      'The base URL should not include /partner/v1; the SDK adds it. Use https://api.example.com/crp.',
    ],
    [
      { ...base, rateLimit: { shared: {} as never } },
      "The option rateLimit.shared takes a budget made by redisBudget() from '@crp/partner-sdk/redis'; got an object.",
    ],
  ])('%j', (options, message) => {
    expect(refusal(options).message).toBe(message);
  });

  it('keeps a base URL path of its own, without trailing slashes, under which /partner/v1 goes', async () => {
    const seen: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
    };
    const client = new PartnerClient({ ...base, baseUrl: 'https://api.example.com/crp//', rateLimit: false, fetch });
    await client.request({ method: 'GET', path: '/thing' });
    expect(seen).toEqual(['https://api.example.com/crp/partner/v1/thing']);
  });

  it('accepts the boundaries: maxRetries 10, timeout 1 ms, maxResponseBytes 1', () => {
    expect(() => new PartnerClient({ ...base, maxRetries: 10, timeout: 1, maxResponseBytes: 1 })).not.toThrow();
    expect(refusal({ ...base, maxRetries: 11 }).message).toMatch(/maxRetries/);
    expect(refusal({ ...base, maxResponseBytes: 0 }).message).toMatch(/maxResponseBytes/);
  });
});
