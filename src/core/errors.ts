/**
 * Every failure the SDK reports is a `PartnerError`. HTTP failures are `PartnerApiError`, with a
 * subclass per error code of the contract, so callers branch by `instanceof` or by `code`.
 * Nothing here ever holds the API key, a request object or its headers.
 */

const BRAND = Symbol.for('@crp/partner-sdk.PartnerError');

/**
 * Error codes the service documents, each with its class. A code it adds later reaches a plain
 * `PartnerApiError` whose `code` is {@link UnknownApiErrorCode} and whose `serviceCode` is the code
 * as sent.
 */
export type ApiErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden_ip'
  | 'feature_not_enabled'
  | 'not_found'
  | 'conflict'
  | 'invalid_state'
  | 'prohibited_rule'
  | 'rate_limited'
  | ServerErrorCode;
/**
 * The code of a plain `PartnerApiError`: the service answered with a status or code this SDK version
 * has no class for (a 418, a code added later). A literal of its own, so that `switch (err.code)`
 * narrows every other case to one class; the service's code is in `serviceCode`.
 */
export type UnknownApiErrorCode = 'unknown_api_error';
const UNKNOWN_API_ERROR: UnknownApiErrorCode = 'unknown_api_error';
/** Codes of a failure of the service or a proxy in front of it (5xx); a body without a code gets the status's own. */
export type ServerErrorCode = 'internal_error' | 'bad_gateway' | 'unavailable' | 'gateway_timeout';
/** Codes of the failures the SDK itself detects, outside an HTTP error response. */
export type ClientErrorCode =
  | 'connection_error'
  | 'timeout'
  | 'aborted'
  | 'configuration_error'
  | 'unexpected_response'
  | 'hook_failed';

/** Where a failed call was going; safe to log. */
export interface RequestSummary {
  /** The HTTP method, e.g. `GET`. */
  method: string;
  /** The path with ids filled in, e.g. `/partner/v1/locations/store-1`. */
  path: string;
}

/** What every SDK error may be created with (to simulate a failure in your own tests). */
export interface PartnerErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  cause?: unknown;
  /** The call that failed. */
  request?: RequestSummary | undefined;
}

/** A structured, secret-free record of an error, for logs. */
export interface PartnerErrorJSON {
  /** The class name, e.g. `NotFoundError`. */
  name: string;
  /** The error code, e.g. `not_found`. */
  code: string;
  /** The code the service's JSON error body gave, when it gave one (for `unknown_api_error`, the one to read). */
  serviceCode?: string;
  /** The readable message, naming the call. */
  message: string;
  /** HTTP status, for errors from a response. */
  status?: number;
  /** The refused input as a dotted path, e.g. `address.state`. */
  field?: string;
  /** The service's request id, to quote to support. */
  requestId?: string;
  /** HTTP method of the failed call. */
  method?: string;
  /** Path of the failed call, ids filled in. */
  path?: string;
  /** HTTP attempts made, retries included. */
  attempts?: number;
  /** For a `RateLimitError`: how long to wait before trying again, in milliseconds. */
  retryAfterMs?: number;
  /** For an `InternalServerError`: the support reference the service gave. */
  reference?: string;
}

/** Base class of every error the SDK throws. */
export class PartnerError extends Error {
  /** What went wrong, as a stable string to branch on. */
  readonly code: string;
  /** Method and path of the call that failed, when there was one. */
  readonly request: RequestSummary | undefined;
  /** How many HTTP attempts were made before giving up (set once retries are over). */
  attempts: number | undefined;
  /** `false` when the SDK refused or stopped the call before anything was sent; undefined when it may have been. */
  sent: false | undefined;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(code: string, message: string, options: PartnerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.request = options.request;
    this.attempts = undefined;
    this.sent = undefined;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A secret-free record for logs: name, code, message, call, attempts (and status, field, request id… in subclasses). */
  toJSON(): PartnerErrorJSON {
    return compact({
      name: this.name,
      code: this.code,
      message: this.message,
      method: this.request?.method,
      path: this.request?.path,
      attempts: this.attempts,
    });
  }
}

/** What a `PartnerApiError` (and its subclasses) is created with (to simulate a failure in your own tests). */
export interface PartnerApiErrorInit extends PartnerErrorOptions {
  /** HTTP status. */
  status: number;
  /** The error code for a subclass (e.g. `not_found`); a plain `PartnerApiError` is always `unknown_api_error`. */
  code: string;
  /** The code as the service's JSON error body gave it; leave out for an answer that had none (an HTML page from a proxy). */
  serviceCode?: string | undefined;
  /** The service's message. */
  message: string;
  /** The refused input as a dotted path. */
  field?: string | undefined;
  /** The service's `x-request-id`. */
  requestId?: string | undefined;
  /** The response headers. */
  headers?: Headers | undefined;
  /** How long the service asked to wait (its Retry-After), in milliseconds. */
  retryAfterMs?: number | undefined;
}

/**
 * The service answered with an error status. Its subclasses carry the documented codes; a plain
 * `PartnerApiError` is a status or code this version has no class for (a 418, a new code): its
 * `code` is `unknown_api_error` and `serviceCode` holds the code the service sent.
 */
export class PartnerApiError extends PartnerError {
  /** One of {@link ApiErrorCode}, or `unknown_api_error` on a plain `PartnerApiError`. */
  declare readonly code: ApiErrorCode | UnknownApiErrorCode;
  /**
   * The code exactly as the service's JSON error body gave it (cleaned); undefined when the answer
   * had no such body (an HTML page or empty body from a proxy) or nothing was sent. On a plain
   * `PartnerApiError` this is the code this version does not know, e.g. `maintenance`.
   */
  readonly serviceCode: string | undefined;
  /** HTTP status of the response (for a refusal made before sending, the status the service would give). */
  readonly status: number;
  /** The refused input as a dotted path, e.g. `address.state`. */
  readonly field: string | undefined;
  /** The service's `x-request-id`, to quote to support. Undefined when nothing was sent. */
  readonly requestId: string | undefined;
  /** Response headers (never request headers, so never the key). */
  declare readonly headers: Headers;
  /**
   * How long the service asked to wait before trying again (its `Retry-After`, on any status), in
   * milliseconds; undefined when it did not say.
   */
  readonly retryAfterMs: number | undefined;

  /** The SDK creates its errors from responses; create one yourself only to simulate a failure in tests. */
  constructor(init: PartnerApiErrorInit) {
    super(new.target === PartnerApiError ? UNKNOWN_API_ERROR : init.code, init.message, init);
    this.serviceCode = init.serviceCode;
    this.status = init.status;
    this.field = init.field;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    // Not enumerable: keeps util.inspect and JSON output short and readable.
    Object.defineProperty(this, 'headers', { value: init.headers ?? new Headers(), enumerable: false });
  }

  override toJSON(): PartnerErrorJSON {
    return compact({
      ...super.toJSON(),
      serviceCode: this.serviceCode,
      status: this.status,
      field: this.field,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
    });
  }
}

/** 400 `validation_error`: the input was refused, by the service or before sending. See `field`. */
export class ValidationError extends PartnerApiError {
  /** `validation_error`. */
  declare readonly code: 'validation_error';
}
/** 401 `unauthorized`: the key is missing, unknown or revoked. */
export class AuthenticationError extends PartnerApiError {
  /** `unauthorized`. */
  declare readonly code: 'unauthorized';
}
/** 403 `forbidden_ip`: the caller's address is not on the key's allow-list. */
export class ForbiddenIpError extends PartnerApiError {
  /** `forbidden_ip`. */
  declare readonly code: 'forbidden_ip';
}
/** 403 `feature_not_enabled`: the endpoint exists but is not switched on for this account. */
export class FeatureNotEnabledError extends PartnerApiError {
  /** `feature_not_enabled`. */
  declare readonly code: 'feature_not_enabled';
}
/** 404 `not_found`: no such store, booking or batch. */
export class NotFoundError extends PartnerApiError {
  /** `not_found`. */
  declare readonly code: 'not_found';
}
/** 409 `conflict` or `invalid_state`: the request clashes with the current state. */
export class ConflictError extends PartnerApiError {
  /** `conflict` (the request clashes with the store as enrolled) or `invalid_state` (not allowed in the store's current state). */
  declare readonly code: 'conflict' | 'invalid_state';
}
/** 422 `prohibited_rule`: rules may not select creators by ethnicity, age or gender. */
export class ProhibitedRuleError extends PartnerApiError {
  /** `prohibited_rule`. */
  declare readonly code: 'prohibited_rule';
}

/** What a `RateLimitError` is created with: `retryAfterMs` is required. */
export interface RateLimitErrorInit extends PartnerApiErrorInit {
  /** How long to wait before trying again, in milliseconds. */
  retryAfterMs: number;
}

/**
 * 429 `rate_limited`: the key's budget is spent, or the call would have had to wait longer than
 * `rateLimit.maxRetryAfter` (then `status` is 429 and `requestId` undefined: nothing was sent).
 * `retryAfterMs` says when to try again. A 429 whose body names another code is one too
 * (`serviceCode` holds that code).
 */
export class RateLimitError extends PartnerApiError {
  /** `rate_limited`. */
  declare readonly code: 'rate_limited';
  /**
   * How long the SDK waits, or would wait, before trying again, in milliseconds: the service's
   * `Retry-After`; without one, until the `RateLimit` reset when the same answer showed the budget
   * spent; without either, the SDK's own backoff for that attempt.
   */
  declare readonly retryAfterMs: number;

  /** The SDK creates its errors from responses; create one yourself only to simulate a failure in tests. */
  constructor(init: RateLimitErrorInit) {
    super({ ...init, code: 'rate_limited' });
  }
}

/**
 * 5xx: the service, or a proxy in front of it, failed. The SDK repeats a safe call; a write not
 * known to be safe only after the service's own 500 or 503 (see the README's retry table). `reference` is the
 * support reference from the message, when given. A 5xx with a code other than these four is a
 * plain `PartnerApiError` (its `status` still says 5xx).
 */
export class InternalServerError extends PartnerApiError {
  /**
   * `internal_error` (500), `bad_gateway` (502), `unavailable` (503) or `gateway_timeout` (504): the
   * service's code, or the status's own when the body has none (an HTML page from a proxy).
   */
  declare readonly code: ServerErrorCode;
  /** Support reference quoted by the service, e.g. `7F3A9C21`. */
  readonly reference: string | undefined;

  /** As {@link PartnerApiError}; `reference` is read from the message. */
  constructor(init: PartnerApiErrorInit) {
    super(init);
    this.reference = /\(ref ([A-Za-z0-9-]+)\)/.exec(init.message)?.[1];
  }

  override toJSON(): PartnerErrorJSON {
    return compact({ ...super.toJSON(), reference: this.reference });
  }
}

/** The request could not be completed at the network level. */
export class ConnectionError extends PartnerError {
  /** `connection_error`. */
  declare readonly code: 'connection_error';
  /**
   * False only when the connection was refused before anything was sent, so the service
   * certainly did not act on the request; true when it may have.
   */
  readonly mayHaveReachedServer: boolean;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, mayHaveReachedServer: boolean, options: PartnerErrorOptions = {}) {
    super('connection_error', message, options);
    this.mayHaveReachedServer = mayHaveReachedServer;
  }
}

/** An attempt took longer than `timeout` (headers and body together). */
export class TimeoutError extends PartnerError {
  /** `timeout`. */
  declare readonly code: 'timeout';
  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, options: PartnerErrorOptions = {}) {
    super('timeout', message, options);
  }
}

/** The caller's AbortSignal stopped the call. `cause` is the signal's reason. */
export class AbortedError extends PartnerError {
  /** `aborted`. */
  declare readonly code: 'aborted';
  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, options: PartnerErrorOptions = {}) {
    super('aborted', message, options);
  }
}

/** The client was set up wrongly; the message says what to change. */
export class ConfigurationError extends PartnerError {
  /** `configuration_error`. */
  declare readonly code: 'configuration_error';
  /**
   * The SDK creates its errors; create one yourself only to simulate a failure in tests.
   * `cause`: what the SDK ran into, e.g. the loader's error when ioredis is installed but broken.
   */
  constructor(message: string, options?: ErrorOptions) {
    super('configuration_error', message, options?.cause === undefined ? {} : { cause: options.cause });
  }
}

/** A successful response lacked something the SDK needs, or was not JSON. */
export class UnexpectedResponseError extends PartnerError {
  /** `unexpected_response`. */
  declare readonly code: 'unexpected_response';
  /** HTTP status of the response that could not be read. */
  readonly status: number;
  /** The service's `x-request-id`, to quote to support. */
  readonly requestId: string | undefined;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, init: PartnerErrorOptions & { status: number; requestId: string | undefined }) {
    super('unexpected_response', message, init);
    this.status = init.status;
    this.requestId = init.requestId;
  }

  override toJSON(): PartnerErrorJSON {
    return compact({ ...super.toJSON(), status: this.status, requestId: this.requestId });
  }
}

/** The service answered with a redirect, which the SDK does not follow (it could send the key or a body elsewhere). */
export class RedirectError extends UnexpectedResponseError {
  /** Where the redirect pointed (cleaned), or undefined when it named no place. */
  readonly location: string | undefined;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(
    message: string,
    init: PartnerErrorOptions & { status: number; requestId: string | undefined; location: string | undefined },
  ) {
    super(message, init);
    this.location = init.location;
  }
}

/** A response body was larger than `maxResponseBytes`; it was not read further. */
export class ResponseTooLargeError extends UnexpectedResponseError {
  /** The limit that was exceeded, in bytes. */
  readonly limitBytes: number;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(
    message: string,
    init: PartnerErrorOptions & { status: number; requestId: string | undefined; limitBytes: number },
  ) {
    super(message, init);
    this.limitBytes = init.limitBytes;
  }
}

/** One of the partner's own `hooks` threw; `hook` names it and `cause` carries a cleaned copy of what it threw. */
export class HookError extends PartnerError {
  declare readonly code: 'hook_failed';
  /** Which hook, e.g. `hooks.beforeRequest[0]`. */
  readonly hook: string;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, hook: string, options: PartnerErrorOptions = {}) {
    super('hook_failed', message, options);
    this.hook = hook;
  }
}

/**
 * Another watcher holds this checkpoint (in this process or, for a file, in another live process).
 * Two watchers on one checkpoint would each deliver everything; stop the other one, or give this
 * one its own checkpoint. A lock left by a process that died is taken over without this error.
 */
export class CheckpointLockedError extends PartnerError {
  declare readonly code: 'checkpoint_locked';
  /** The process id that holds the lock, when known. */
  readonly holderPid: number | undefined;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, holderPid?: number) {
    super('checkpoint_locked', message);
    this.holderPid = holderPid;
  }
}

/** The checkpoint holds something the watcher cannot read (another program's data, or a newer format). */
export class CheckpointInvalidError extends PartnerError {
  declare readonly code: 'checkpoint_invalid';

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('checkpoint_invalid', message, options);
  }
}

/**
 * A call that is not blindly repeatable failed in a way the service may have acted on (a 500, a
 * time-out), its repeat was refused as if it had (409), and the state read back does not say
 * either way. `earlier` is the first failure, `repeat` the refusal; the message says what to check
 * before deciding again. When the state read back is what the call produces, the call succeeds
 * instead and this error is not thrown.
 *
 * @example
 * ```ts
 * try { await client.creators.decideSamples('store-1', batchId, 'new_batch') } catch (err) {
 *   if (err instanceof AmbiguousOutcomeError) console.warn(err.message, err.earlier.code, err.repeat.code);
 * }
 * ```
 */
export class AmbiguousOutcomeError extends PartnerError {
  declare readonly code: 'ambiguous_outcome';
  /** The attempt that failed after the service may have acted (a 5xx, a time-out, a lost connection). */
  readonly earlier: PartnerError;
  /** The repeat's refusal, e.g. a `ConflictError` `invalid_state`. */
  readonly repeat: PartnerError;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, init: PartnerErrorOptions & { earlier: PartnerError; repeat: PartnerError }) {
    super('ambiguous_outcome', message, init);
    this.earlier = init.earlier;
    this.repeat = init.repeat;
  }
}

/**
 * A plain `PartnerApiError`: a status or code this version has no class for. Its `code` is
 * `unknown_api_error`; `serviceCode` is the code the service sent (undefined for a body without
 * one), `status` the status.
 */
export type OtherApiError = PartnerApiError & { readonly code: UnknownApiErrorCode };

/**
 * Every error the SDK throws, discriminated by `code`, so `switch (err.code)` narrows to the class
 * and a misspelt `case` does not compile. A status or code this version does not know arrives as a
 * plain `PartnerApiError` ({@link OtherApiError}) in `case 'unknown_api_error'` (or `default`),
 * with the service's code in `serviceCode`.
 *
 * @example
 * ```ts
 * if (isPartnerError(err)) switch (err.code) {
 *   case 'not_found': return undefined;                     // err: NotFoundError
 *   case 'rate_limited': return retryIn(err.retryAfterMs);  // err: RateLimitError, a number
 *   case 'unknown_api_error': log(err.status, err.serviceCode); break;
 *   default: throw err;
 * }
 * ```
 */
export type AnyPartnerError =
  | ValidationError
  | AuthenticationError
  | ForbiddenIpError
  | FeatureNotEnabledError
  | NotFoundError
  | ConflictError
  | ProhibitedRuleError
  | RateLimitError
  | InternalServerError
  | ConnectionError
  | TimeoutError
  | AbortedError
  | ConfigurationError
  | UnexpectedResponseError
  | HookError
  | CheckpointLockedError
  | CheckpointInvalidError
  | AmbiguousOutcomeError
  | OtherApiError;

/**
 * True for any error thrown by this SDK, even one from another copy of the package
 * (where `instanceof` would say false).
 *
 * @example
 * ```ts
 * try { await client.locations.get('store-1') } catch (err) {
 *   if (isPartnerError(err) && err.code === 'not_found') { ... }
 * }
 * ```
 */
export function isPartnerError(value: unknown): value is AnyPartnerError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** True for an error the service answered with (an HTTP status), from any copy of the package. */
export function isPartnerApiError(value: unknown): value is PartnerApiError {
  return isPartnerError(value) && typeof (value as { status?: unknown }).status === 'number' && 'field' in value;
}

type Loose<T> = { [K in keyof T]: T[K] | undefined };

/** Drop the fields that have no value, so logs stay short. */
function compact(record: Loose<PartnerErrorJSON>): PartnerErrorJSON {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out as unknown as PartnerErrorJSON;
}
