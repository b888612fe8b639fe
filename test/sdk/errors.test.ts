import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  ForbiddenIpError,
  InternalServerError,
  PartnerApiError,
  type PartnerClient,
  PartnerError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  isPartnerError,
  type AnyPartnerError,
} from '../../src/index.js';
import { address, startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

function everythingVisible(error: unknown): string {
  const e = error as Error & { toJSON?: () => unknown };
  return [
    String(e.message),
    String(e.stack),
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    inspect(e.cause, { depth: 10, showHidden: true }),
    e.toJSON ? JSON.stringify(e.toJSON()) : '',
  ].join('\n');
}

describe('errors from real emulator responses', () => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv('http');
    client = env.client({ maxRetries: 0 });
    await client.locations.enroll({ partner_location_id: 'e-1', name: 'E', address: address(1) });
  });
  afterAll(() => env.close());

  it('gives AuthenticationError for an unknown key and never shows the key', async () => {
    const wrongKey = 'crp_test_definitely-not-issued-123456';
    const logged: unknown[] = [];
    const log = (...args: unknown[]) => logged.push(args);
    const stranger = env.client({ apiKey: wrongKey, logger: { debug: log, info: log, warn: log } });
    const error = await stranger.locations.get('e-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', requestId: expect.any(String) });
    expect(everythingVisible(error)).not.toContain(wrongKey);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(wrongKey);
  });

  it('gives ForbiddenIpError when the key is limited to other addresses', async () => {
    const key = env.sandbox.issueKey({ allowIps: ['10.1.2.0/24', '2001:db8::/32'] });
    const error = await env
      .client({ apiKey: key })
      .reports.summary()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenIpError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden_ip' });
    expect(everythingVisible(error)).not.toContain(key);
  });

  it('names method and path in the message, and gives a secret-free toJSON', async () => {
    const error = (await client.locations.get('missing-store').catch((e: unknown) => e)) as PartnerApiError;
    expect(error.message).toContain('GET /partner/v1/locations/missing-store');
    expect(error.toJSON()).toEqual({
      name: 'NotFoundError',
      code: 'not_found',
      serviceCode: 'not_found',
      message: error.message,
      status: 404,
      requestId: error.requestId,
      method: 'GET',
      path: '/partner/v1/locations/missing-store',
      attempts: 1,
    });
  });

  it('keeps the caller’s own line in the stack after queueing and retries', async () => {
    env.sandbox.faults.next({ status: 500, times: 1, path: '/partner/v1/locations/missing-2' });
    const error = (await client.locations.get('missing-2', { maxRetries: 1 }).catch((e: unknown) => e)) as Error;
    expect(error.stack).toContain('errors.test.ts');
  });

  it('shows where a list was asked for when a later page of its walk fails', async () => {
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 3 });
    // Asked for here, walked elsewhere: only the list's own call site can name this function.
    function askForTheList() {
      return client.reservations.list({ limit: 1 });
    }
    const walk = askForTheList()[Symbol.asyncIterator]();
    await walk.next();
    await walk.next();
    env.sandbox.faults.next({ status: 500, times: 1, path: '/partner/v1/reservations' });
    const error = (await walk.next().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.stack).toContain('askForTheList');
  });

  it('gives InternalServerError with the support reference parsed from the message', async () => {
    env.sandbox.faults.next({ status: 500, times: 1, path: '/partner/v1/summary' });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.code).toBe('internal_error');
    expect(error.reference).toMatch(/^[A-Z0-9]{8}$/);
  });

  it('gives the right class for an HTML page from a proxy, with a readable message', async () => {
    env.sandbox.faults.next({ status: 502, body: 'html', times: 1, path: '/partner/v1/summary' });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/HTML page/);
    expect(error.message).not.toMatch(/<html/i);
  });

  it('gives the right class for an empty error body', async () => {
    env.sandbox.faults.next({ status: 404, body: 'empty', times: 1, path: '/partner/v1/summary' });
    const error = await client.reports.summary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 404, name: 'NotFoundError' });
    expect((error as Error).message).toMatch(/empty body/);
  });

  it('keeps an unknown status and code as a PartnerApiError carrying them', async () => {
    env.sandbox.faults.next({ status: 418, times: 1, path: '/partner/v1/summary' });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as PartnerApiError;
    expect(error.constructor).toBe(PartnerApiError);
    expect(error.status).toBe(418);
    expect(typeof error.code).toBe('string');
  });

  it('gives UnexpectedResponseError for malformed JSON on success', async () => {
    env.sandbox.faults.next({ malformed: true, times: 1, path: '/partner/v1/summary' });
    const error = await client.reports.summary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ code: 'unexpected_response', status: 200 });
  });

  it('gives RateLimitError with retryAfterMs when retries are off', async () => {
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '7' }, times: 1, path: '/partner/v1/summary' });
    const error = (await env
      .client({ maxRetries: 0, rateLimit: false })
      .reports.summary()
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.toJSON()).toMatchObject({ code: 'rate_limited', retryAfterMs: 7000, attempts: 1 });
  });

  it('gives TimeoutError when the service hangs, without the key anywhere', async () => {
    env.sandbox.faults.next({ hang: true, times: 1, path: '/partner/v1/summary' });
    const error = await client.reports.summary({ timeout: 150, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(everythingVisible(error)).not.toContain(env.key);
  });

  it('gives ConnectionError when nothing listens, marked as never sent', async () => {
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const offline = env.client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = (await offline.reports.summary().catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayHaveReachedServer).toBe(false);
    expect(everythingVisible(error)).not.toContain(env.key);
  });

  it('recognises errors from another copy of the package', async () => {
    vi.resetModules();
    const copy = (await import('../../src/core/errors.js')) as typeof import('../../src/core/errors.js');
    const foreign = new copy.ValidationError({ status: 400, code: 'validation_error', message: 'x' });
    expect(foreign).not.toBeInstanceOf(ValidationError);
    expect(isPartnerError(foreign)).toBe(true);
    expect(isPartnerError(new Error('plain'))).toBe(false);
  });

  it('narrows by code in a switch', async () => {
    const error = (await client.locations.get('nope-nope').catch((e: unknown) => e)) as AnyPartnerError;
    let reached = '';
    if (isPartnerError(error)) {
      switch (error.code) {
        case 'not_found':
          reached = error.status === 404 ? 'not_found' : 'wrong';
          break;
        default:
          reached = 'other';
      }
    }
    expect(reached).toBe('not_found');
    expect(error).toBeInstanceOf(PartnerError);
  });
});
