import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/core/error-from-response.js';
import {
  AuthenticationError,
  ConflictError,
  FeatureNotEnabledError,
  ForbiddenIpError,
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  PartnerClient,
  ProhibitedRuleError,
  RateLimitError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { address } from '../helpers/sdk-env.js';

/**
 * Each error class from a real emulator response, including the ones the SDK's own checks keep
 * it from provoking (a 422 for a prohibited rule, a 400 for an unknown query parameter).
 */
describe('the error class chosen for each real emulator response', () => {
  const sandbox = createSandbox({ seed: 11 });
  const key = sandbox.issueKey();
  const base = 'https://sandbox.test/partner/v1';

  async function raw(method: string, path: string, body?: unknown, apiKey = key): Promise<PartnerApiError> {
    const response = await sandbox.handle(
      new Request(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    return errorFromResponse({
      status: response.status,
      headers: response.headers,
      body: await response.text(),
      request: { method, path: `/partner/v1${path}` },
    });
  }

  beforeAll(async () => {
    await sandbox.handle(
      new Request(`${base}/locations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ partner_location_id: 'known', name: 'Known', address: address(2) }),
      }),
    );
  });

  it.each([
    [
      'an unknown query parameter',
      () => raw('GET', '/reservations?colour=red'),
      ValidationError,
      'validation_error',
      'colour',
    ],
    [
      'malformed JSON',
      () => raw('POST', '/locations', '{"partner_location_id":'),
      ValidationError,
      'validation_error',
      undefined,
    ],
    [
      'an unknown key',
      () => raw('GET', '/summary', undefined, 'crp_test_unknown'),
      AuthenticationError,
      'unauthorized',
      undefined,
    ],
    [
      'a live key',
      () => raw('GET', '/summary', undefined, 'crp_live_abc'),
      AuthenticationError,
      'unauthorized',
      undefined,
    ],
    ['an unknown store', () => raw('GET', '/locations/ghost'), NotFoundError, 'not_found', undefined],
    [
      'a conflicting enrollment',
      () => raw('POST', '/locations', { partner_location_id: 'known', name: 'Other', address: address(2) }),
      ConflictError,
      'conflict',
      undefined,
    ],
    [
      'a prohibited rule',
      () => raw('PATCH', '/locations/known', { rules: { audience: { gender: 'female' } } }),
      ProhibitedRuleError,
      'prohibited_rule',
      'rules.audience.gender',
    ],
    [
      'the dashboard token',
      () => raw('POST', '/locations/known/dashboard-token'),
      FeatureNotEnabledError,
      'feature_not_enabled',
      undefined,
    ],
  ] as const)('%s', async (_what, provoke, ErrorClass, code, field) => {
    const error = await provoke();
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.code).toBe(code);
    expect(error.requestId).toMatch(/.+/);
    if (field !== undefined) expect(error.field).toBe(field);
  });

  it('a caller outside the allow-list', async () => {
    const limited = sandbox.issueKey({ allowIps: ['192.0.2.0/24'] });
    const error = await raw('GET', '/summary', undefined, limited);
    expect(error).toBeInstanceOf(ForbiddenIpError);
  });

  it('a terminated store that is asked to resume', async () => {
    await sandbox.handle(
      new Request(`${base}/locations/known/terminate`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }),
    );
    const error = await raw('POST', '/locations/known/resume');
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('invalid_state');
  });
});

describe('limits and unreadable successes through the client', () => {
  const sandbox = createSandbox({ seed: 12 });
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await sandbox.listen(0));
  });
  afterAll(() => close());

  it('gives RateLimitError with the service’s Retry-After when the budget is spent and retries are off', async () => {
    const key = sandbox.issueKey({ rateLimit: { limit: 2, windowMs: 30_000 } });
    const client = new PartnerClient({ apiKey: key, baseUrl: url, maxRetries: 0, rateLimit: false });
    await client.reports.summary();
    await client.reports.summary();
    const error = (await client.reports.summary().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('gives UnexpectedResponseError naming the field when a success lacks one the SDK needs', async () => {
    const key = sandbox.issueKey();
    const stripping: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.json()) as Record<string, unknown>;
      delete body.locations;
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    const client = new PartnerClient({ apiKey: key, baseUrl: url, fetch: stripping });
    const error = (await client.reports.summary().catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain('locations');
    expect(error.requestId).toMatch(/.+/);
  });

  it('keeps fields and enum values it does not know', async () => {
    const key = sandbox.issueKey();
    const adding: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, status: 'archived', brand_new: { x: 1 } }), {
        status: response.status,
        headers: response.headers,
      });
    };
    const client = new PartnerClient({ apiKey: key, baseUrl: url, fetch: adding });
    const store = await client.locations.enroll({ partner_location_id: 'new-fields', name: 'N', address: address(3) });
    expect(store.status).toBe('archived');
    expect((store as Record<string, unknown>).brand_new).toEqual({ x: 1 });
  });
});

describe('errors a caller creates to simulate a failure', () => {
  it('a plain PartnerApiError is the catch-all: code unknown_api_error, the service’s code in serviceCode', () => {
    const error = new PartnerApiError({
      status: 409,
      code: 'store_merged',
      serviceCode: 'store_merged',
      message: 'Merged',
    });
    expect(error.code).toBe('unknown_api_error');
    expect(error.serviceCode).toBe('store_merged');
    expect(error.toJSON()).toMatchObject({
      name: 'PartnerApiError',
      code: 'unknown_api_error',
      serviceCode: 'store_merged',
      status: 409,
    });
  });

  it('a subclass keeps the code it was given; serviceCode only when given', () => {
    const error = new NotFoundError({ status: 404, code: 'not_found', message: 'No store' });
    expect(error.code).toBe('not_found');
    expect(error.serviceCode).toBeUndefined();
    expect(error.toJSON()).not.toHaveProperty('serviceCode');
  });

  it('a RateLimitError is always rate_limited, with the wait it was given', () => {
    const error = new RateLimitError({
      status: 429,
      code: 'slow_down',
      serviceCode: 'slow_down',
      message: 'Slow down',
      retryAfterMs: 1500,
    });
    expect(error).toMatchObject({ code: 'rate_limited', serviceCode: 'slow_down', retryAfterMs: 1500 });
  });
});

describe('the class follows the code, from the service’s own body', () => {
  const answer = (status: number, code: string) =>
    errorFromResponse({
      status,
      headers: new Headers(),
      body: JSON.stringify({ error: { code, message: 'm' } }),
      request: { method: 'GET', path: '/partner/v1/x' },
    });

  it.each([
    [404, 'not_found', NotFoundError, 'not_found'],
    [503, 'unavailable', InternalServerError, 'unavailable'],
    [503, 'maintenance', PartnerApiError, 'unknown_api_error'],
    [418, 'teapot', PartnerApiError, 'unknown_api_error'],
    [429, 'slow_down', RateLimitError, 'rate_limited'],
  ] as const)('%i %s → %o', (status, sent, ErrorClass, code) => {
    const error = answer(status, sent);
    expect(error.constructor).toBe(ErrorClass);
    expect(error).toMatchObject({ status, code, serviceCode: sent });
  });
});
