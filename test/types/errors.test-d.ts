// Type tests (vitest typecheck, part of `npm test`): each @ts-expect-error fails the run if its line compiles.
import { describe, expectTypeOf, it } from 'vitest';
import {
  AbortedError,
  AmbiguousOutcomeError,
  AuthenticationError,
  CheckpointInvalidError,
  CheckpointLockedError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  FeatureNotEnabledError,
  ForbiddenIpError,
  HookError,
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  ProhibitedRuleError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  isPartnerError,
  type PartnerError,
  type AnyPartnerError,
  type ApiErrorCode,
  type OtherApiError,
  type PartnerClient,
  type UnknownApiErrorCode,
} from '../../src/index.js';

declare const error: unknown;
declare const client: PartnerClient;

describe('error codes', () => {
  it('switch (err.code) narrows to exactly one class on every code', () => {
    if (!isPartnerError(error)) return;
    switch (error.code) {
      case 'validation_error': {
        const e: ValidationError = error;
        expectTypeOf(e.field).toEqualTypeOf<string | undefined>();
        break;
      }
      case 'unauthorized':
        expectTypeOf(error).toEqualTypeOf<AuthenticationError>();
        break;
      case 'forbidden_ip':
        expectTypeOf(error).toEqualTypeOf<ForbiddenIpError>();
        break;
      case 'feature_not_enabled':
        expectTypeOf(error).toEqualTypeOf<FeatureNotEnabledError>();
        break;
      case 'not_found': {
        // The case: the catch-all no longer rides along into every branch.
        const e: NotFoundError = error;
        expectTypeOf(error).toEqualTypeOf<NotFoundError>();
        void e;
        break;
      }
      case 'conflict':
      case 'invalid_state':
        expectTypeOf(error).toEqualTypeOf<ConflictError>();
        break;
      case 'prohibited_rule':
        expectTypeOf(error).toEqualTypeOf<ProhibitedRuleError>();
        break;
      case 'rate_limited':
        expectTypeOf(error).toEqualTypeOf<RateLimitError>();
        // The SDK always knows how long it would wait: a number, never undefined.
        expectTypeOf(error.retryAfterMs).toEqualTypeOf<number>();
        break;
      case 'unavailable':
      case 'bad_gateway':
      case 'gateway_timeout':
      case 'internal_error':
        expectTypeOf(error).toEqualTypeOf<InternalServerError>();
        expectTypeOf(error.reference).toEqualTypeOf<string | undefined>();
        break;
      case 'connection_error':
        expectTypeOf(error).toEqualTypeOf<ConnectionError>();
        expectTypeOf(error.mayHaveReachedServer).toEqualTypeOf<boolean>();
        // @ts-expect-error: a connection error has no HTTP status
        void error.status;
        break;
      case 'timeout':
        expectTypeOf(error).toEqualTypeOf<TimeoutError>();
        break;
      case 'aborted':
        expectTypeOf(error).toEqualTypeOf<AbortedError>();
        break;
      case 'configuration_error':
        expectTypeOf(error).toEqualTypeOf<ConfigurationError>();
        break;
      case 'unexpected_response':
        expectTypeOf(error).toEqualTypeOf<UnexpectedResponseError>();
        break;
      case 'hook_failed':
        expectTypeOf(error).toEqualTypeOf<HookError>();
        break;
      case 'checkpoint_locked':
        expectTypeOf(error).toEqualTypeOf<CheckpointLockedError>();
        expectTypeOf(error.holderPid).toEqualTypeOf<number | undefined>();
        break;
      case 'checkpoint_invalid':
        expectTypeOf(error).toEqualTypeOf<CheckpointInvalidError>();
        break;
      case 'ambiguous_outcome':
        expectTypeOf(error).toEqualTypeOf<AmbiguousOutcomeError>();
        expectTypeOf(error.earlier).toEqualTypeOf<PartnerError>();
        break;
      case 'unknown_api_error':
        // A status or code this version does not know: the catch-all, with the service's code readable.
        expectTypeOf(error).toEqualTypeOf<OtherApiError>();
        expectTypeOf(error.serviceCode).toEqualTypeOf<string | undefined>();
        expectTypeOf(error.status).toEqualTypeOf<number>();
        break;
      // @ts-expect-error: a misspelt code does not compile
      case 'not_fonud':
        break;
      // @ts-expect-error: nor does a code no class has (it arrives as unknown_api_error)
      case 'a_code_added_later':
        break;
      default: {
        // Every code is handled above, so nothing is left.
        expectTypeOf(error).toBeNever();
      }
    }
  });

  it('a code this version does not know arrives in default when its case is left out', () => {
    if (!isPartnerError(error)) return;
    switch (error.code) {
      case 'not_found':
      case 'rate_limited':
        break;
      default:
        if (error.code === 'unknown_api_error') expectTypeOf(error.serviceCode).toEqualTypeOf<string | undefined>();
        expectTypeOf<OtherApiError>().toExtend<typeof error>();
        // @ts-expect-error: a handled code is no longer possible here
        void (error.code === 'not_found');
    }
  });

  it('isPartnerError() narrows to a union that includes the plain PartnerApiError', () => {
    expectTypeOf<OtherApiError>().toExtend<AnyPartnerError>();
    if (isPartnerError(error)) expectTypeOf(error).toEqualTypeOf<AnyPartnerError>();
  });

  it('each class states the codes that reach it', () => {
    expectTypeOf<InternalServerError['code']>().toEqualTypeOf<'internal_error' | 'bad_gateway' | 'unavailable' | 'gateway_timeout'>();
    expectTypeOf<ConflictError['code']>().toEqualTypeOf<'conflict' | 'invalid_state'>();
    expectTypeOf<ValidationError['code']>().toEqualTypeOf<'validation_error'>();
    expectTypeOf<OtherApiError['code']>().toEqualTypeOf<UnknownApiErrorCode>();
    expectTypeOf<PartnerApiError['code']>().toEqualTypeOf<ApiErrorCode | 'unknown_api_error'>();
    // The service's own code, whatever it is, is a string on every HTTP error.
    expectTypeOf<PartnerApiError['serviceCode']>().toEqualTypeOf<string | undefined>();
    // Other HTTP errors may lack a wait; a RateLimitError never does.
    expectTypeOf<PartnerApiError['retryAfterMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RateLimitError['retryAfterMs']>().toEqualTypeOf<number>();
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
