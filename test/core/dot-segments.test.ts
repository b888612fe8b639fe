import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, PartnerClient, ValidationError } from '../../src/index.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

/**
 * `client.request()` takes a caller's path, sent with the API key under /partner/v1. A dot-segment
 * in any spelling would climb out of it (the WHATWG URL parser itself climbs `%2e%2e`), so every
 * spelling is refused before anything is sent.
 */
describe('client.request() refuses dot-segments in every spelling', () => {
  let env: SdkEnv;
  beforeAll(async () => {
    env = await startSdkEnv('http');
  });
  afterAll(() => env.close());

  it('never sends /%2e%2e/%2e%2e/_sandbox/reset (with the key) to the control API', async () => {
    const client = env.client();
    const before = env.sandbox.requests.length;
    const error = await client
      .request({ method: 'POST', path: '/%2e%2e/%2e%2e/_sandbox/reset' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).message).toMatch(/'\.' or '\.\.' segment in any spelling.*Nothing was sent/);
    expect(env.sandbox.requests.length).toBe(before);
    // Not reset: the key still opens its account.
    await expect(client.request({ method: 'GET', path: '/reservations' })).resolves.toBeDefined();
  });

  it.each([
    '/%2e%2e/x',
    '/%2E%2E/x',
    '/.%2e/x',
    '/%2e./x',
    '/%2e',
    '/a/%2E/b',
    '/%252e%252e/x',
    '/%25252e%25252E/x',
    '/..;/x',
    '/..;jsessionid=1/x',
    '/%2e%2e%3b/x',
    '/a%2f..%2fb',
    '/a%5c..%5cb',
    '/a%5C%2e%2e',
    '/%c0%ae%c0%ae/x',
    '/%ef%bc%8e%ef%bc%8e/x',
    '/..%00/x',
    '/%2e%2e%2f_sandbox',
    '/..%20/x',
    '/%2e%2e%09/x',
  ])('refuses %s before sending', async (path) => {
    const sent: string[] = [];
    const client = new PartnerClient({
      apiKey: 'crp_test_dots-0123456789',
      baseUrl: 'https://api.test',
      fetch: async (input) => (sent.push(String(input)), new Response('{}')),
    });
    await expect(client.request({ method: 'GET', path })).rejects.toMatchObject({ code: 'configuration_error' });
    expect(sent).toEqual([]);
  });

  /** `A` (%41) percent-encoded `depth` times: `%2541` is two deep. */
  const nested = (depth: number) => `/%${'25'.repeat(depth - 1)}41`;

  it('decodes up to 8 rounds: a path encoded 8 deep goes out as given, one 9 deep is refused as unreadable', async () => {
    const sent: string[] = [];
    const client = new PartnerClient({
      apiKey: 'crp_test_dots-0123456789',
      baseUrl: 'https://api.test',
      fetch: async (input) => (
        sent.push(input instanceof Request ? input.url : String(input)),
        new Response('{}', { headers: { 'content-type': 'application/json' } })
      ),
    });
    await expect(client.request({ method: 'GET', path: nested(8) })).resolves.toEqual({});
    expect(new URL(sent[0] as string).pathname).toBe(`/partner/v1${nested(8)}`);
    await expect(client.request({ method: 'GET', path: nested(9) })).rejects.toMatchObject({
      code: 'configuration_error',
    });
    expect(sent).toHaveLength(1);
  });

  it('refuses an id that a server decoding twice would read as ".." (fillRoute, the last guard)', async () => {
    const error = await env
      .client()
      .reservations.acknowledge('%2e%2e', 'acknowledged_self')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('reservation_id');
  });
});

describe('property: dot-segments however encoded are refused; ordinary paths pass unchanged', () => {
  const dot = fc.constantFrom(
    '.',
    '%2e',
    '%2E',
    '%252e',
    '%252E',
    '%25252e',
    '%c0%ae',
    '%C0%AE',
    '%ef%bc%8e',
    '%E2%80%A4',
  );
  const dots = fc.array(dot, { minLength: 1, maxLength: 2 }).map((parts) => parts.join(''));
  const tail = fc.constantFrom('', '', ';', ';jsessionid=1', '%3b', '%3Bx', '%00', '%2500');
  const separator = fc.constantFrom('/', '%2f', '%2F', '%5c', '%5C', '%252f', '%255c');
  const plain = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,11}$/);
  const ordinary = fc.oneof(
    plain,
    fc.constantFrom('store.42', '..foo', 'foo..', '...', '.well-known', 'a.b.c', 'caf%C3%A9', 'a%20b', '%2e%2e%2e'),
  );

  const sendsNothing = () => {
    const sent: string[] = [];
    const client = new PartnerClient({
      apiKey: 'crp_test_dots-0123456789',
      baseUrl: 'https://api.test',
      maxRetries: 0,
      fetch: async (input) => (
        sent.push(input instanceof Request ? input.url : String(input)),
        new Response('{}', { headers: { 'content-type': 'application/json' } })
      ),
    });
    return { client, sent };
  };

  it('a dot-segment spelled any way, anywhere in the path, is refused and nothing is sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ordinary, { maxLength: 3 }),
        separator,
        dots,
        tail,
        fc.array(ordinary, { maxLength: 3 }),
        async (before, sep, segment, after, rest) => {
          const path = `/${[...before, `${sep === '/' ? '' : `x${sep}`}${segment}${after}`, ...rest].join('/')}`;
          const { client, sent } = sendsNothing();
          const error = await client.request({ method: 'GET', path }).catch((e: unknown) => e);
          expect(error, path).toBeInstanceOf(ConfigurationError);
          expect(sent).toEqual([]);
        },
      ),
      fastCheckRuns(300),
    );
  });

  it('ids with dots in them (store.42, ..foo, ...) go out exactly as given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ordinary, { minLength: 1, maxLength: 4 }), async (segments) => {
        const path = `/${segments.join('/')}`;
        const { client, sent } = sendsNothing();
        await expect(client.request({ method: 'GET', path })).resolves.toEqual({});
        expect(new URL(sent[0] as string).pathname).toBe(`/partner/v1${path}`);
      }),
      fastCheckRuns(300),
    );
  });
});
