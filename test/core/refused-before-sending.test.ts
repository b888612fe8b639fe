import { describe, expect, it } from 'vitest';
import { problemRefusedBeforeSending } from '../../src/core/refusal.js';
import {
  ConnectionError,
  PartnerClient,
  ValidationError,
  effectInDoubt,
  isTransient,
  InternalServerError,
  TimeoutError,
  UnexpectedResponseError,
} from '../../src/index.js';

/** `error.sent === false` is the one fact that says the SDK refused a call before sending it. */
describe('error.sent', () => {
  it('is false on input refused before sending, through the client, with no request made', async () => {
    let fetched = 0;
    const client = new PartnerClient({
      apiKey: 'crp_test_sent',
      baseUrl: 'http://127.0.0.1:9',
      fetch: async () => (fetched++, new Response('{}')),
    });
    const error = await client.locations.get('..').catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).sent).toBe(false);
    expect(fetched).toBe(0);
    expect(problemRefusedBeforeSending(error)).toMatchObject({ field: 'partner_location_id' });
  });

  it("is undefined on the service's own refusal, whatever its message says", () => {
    const fromService = new ValidationError({
      status: 400,
      code: 'validation_error',
      message: 'from is bad. Nothing was sent.',
      field: 'from',
    });
    expect(fromService.sent).toBeUndefined();
    expect(problemRefusedBeforeSending(fromService)).toBeUndefined();
  });
});

describe('the rules of doubt, one owner', () => {
  const api = (Type: typeof InternalServerError, status: number, code: string, serviceCode?: string) =>
    new Type({ status, code: code as never, message: 'x', serviceCode });
  it('effectInDoubt is wider than mayHaveActed: a 503 and an unreadable answer leave a write in doubt', () => {
    expect(effectInDoubt(api(InternalServerError, 503, 'unavailable', 'unavailable'))).toBe(true);
    expect(effectInDoubt(new UnexpectedResponseError('garbled', { status: 200, requestId: undefined }))).toBe(true);
    expect(effectInDoubt(new TimeoutError('slow'))).toBe(true);
    expect(effectInDoubt(new ValidationError({ status: 400, code: 'validation_error', message: 'x' }))).toBe(false);
  });
  it('effectInDoubt: any 5xx, the 500 included; a connection refused before sending leaves nothing in doubt', () => {
    expect(effectInDoubt(api(InternalServerError, 500, 'internal_error', 'internal_error'))).toBe(true);
    expect(effectInDoubt(new ConnectionError('refused', false))).toBe(false);
    expect(effectInDoubt(new ConnectionError('reset', true))).toBe(true);
  });
  it('isTransient: what a poller tries again at its next turn', () => {
    expect(isTransient(api(InternalServerError, 500, 'internal_error'))).toBe(true);
    expect(isTransient(new TimeoutError('slow'))).toBe(true);
    expect(isTransient(new ValidationError({ status: 400, code: 'validation_error', message: 'x' }))).toBe(false);
    expect(isTransient(new Error('plain'))).toBe(false);
  });
  it('isTransient: any 5xx passes with time, whatever code the service gave it (500 included)', () => {
    expect(isTransient(api(InternalServerError, 500, 'unavailable'))).toBe(true);
    expect(isTransient(api(InternalServerError, 502, 'bad_gateway'))).toBe(true);
  });
});
