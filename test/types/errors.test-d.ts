// Type tests (vitest typecheck, part of `npm test`): each @ts-expect-error fails the run if its line compiles.
import { describe, expectTypeOf, it } from 'vitest';
import {
  ConflictError,
  InternalServerError,
  PartnerApiError,
  PartnerError,
  ValidationError,
  isPartnerError,
  type AnyPartnerError,
  type PartnerClient,
} from '../../src/index.js';

declare const error: unknown;
declare const client: PartnerClient;

describe('error codes', () => {
  it('switch (err.code) narrows to the class on every documented code', () => {
    if (!isPartnerError(error)) return;
    switch (error.code) {
      case 'validation_error':
        expectTypeOf(error.field).toEqualTypeOf<string | undefined>();
        break;
      case 'rate_limited':
        expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
        break;
      case 'unavailable':
      case 'bad_gateway':
      case 'gateway_timeout':
      case 'internal_error':
        expectTypeOf(error.reference).toEqualTypeOf<string | undefined>();
        expectTypeOf(error.status).toEqualTypeOf<number>();
        break;
      case 'conflict':
      case 'invalid_state':
        expectTypeOf(error).toExtend<PartnerApiError>();
        break;
      case 'connection_error':
        expectTypeOf(error.mayHaveReachedServer).toEqualTypeOf<boolean | undefined>();
        // @ts-expect-error: a connection error has no HTTP status (only the catch-all has one)
        void error.status.toFixed();
        break;
      case 'unauthorized':
      case 'forbidden_ip':
      case 'feature_not_enabled':
      case 'not_found':
      case 'prohibited_rule':
      case 'timeout':
      case 'aborted':
      case 'configuration_error':
      case 'unexpected_response':
        break;
      case 'checkpoint_locked':
        // The event stream's errors are part of the union too.
        expectTypeOf(error.holderPid).toEqualTypeOf<number | undefined>();
        break;
      case 'checkpoint_invalid':
        expectTypeOf(error).toExtend<PartnerError>();
        break;
      case 'a_code_added_later':
        // A code the service adds later compiles as a case, and reaches the catch-all PartnerApiError.
        expectTypeOf(error).toExtend<PartnerApiError>();
        break;
      default: {
        // The catch-all PartnerApiError is still possible here: an exhaustive `never` does not compile.
        // @ts-expect-error: a 418 or a new code reaches the default branch at runtime
        const unreachable: never = error;
        void unreachable;
      }
    }
  });

  it('isPartnerError() narrows to a union that includes the plain PartnerApiError', () => {
    expectTypeOf<PartnerApiError & { code: 'teapot' }>().toExtend<AnyPartnerError>();
    if (isPartnerError(error)) expectTypeOf(error).toEqualTypeOf<AnyPartnerError>();
  });

  it('each class states the codes that reach it', () => {
    expectTypeOf<InternalServerError['code']>().toEqualTypeOf<'internal_error' | 'bad_gateway' | 'unavailable' | 'gateway_timeout'>();
    expectTypeOf<ConflictError['code']>().toEqualTypeOf<'conflict' | 'invalid_state'>();
    expectTypeOf<ValidationError['code']>().toEqualTypeOf<'validation_error'>();
    // A plain PartnerApiError's code is any string (the service may add codes).
    expectTypeOf<'teapot'>().toExtend<PartnerApiError['code']>();
  });
});

describe('inputs', () => {
  it('refuses what the service would refuse', async () => {
    // @ts-expect-error: unknown fields are refused by the type too
    await client.locations.update('x', { colour: 'red' });
    // @ts-expect-error: preferred_language is 'en' or 'zh'
    await client.locations.update('x', { preferred_language: 'fr' });
    // @ts-expect-error: acknowledged_kind is one of two values
    await client.reservations.acknowledge('r', 'seen');
    // @ts-expect-error: limit is a number
    client.reservations.list({ limit: 'ten' });
  });
});
