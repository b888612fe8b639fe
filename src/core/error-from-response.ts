import { errorBody } from '../schemas/common.js';
import {
  AuthenticationError,
  ConflictError,
  FeatureNotEnabledError,
  ForbiddenIpError,
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  ProhibitedRuleError,
  RateLimitError,
  ValidationError,
  type PartnerApiErrorInit,
  type RequestSummary,
} from './errors.js';
import { cleanText } from './sanitize.js';

type ApiErrorClass = new (init: PartnerApiErrorInit) => PartnerApiError;

/**
 * The class for each documented code. A class is chosen by code only, so each class's `code` type
 * is true; a code not listed here is a plain `PartnerApiError`, whatever its status.
 */
const BY_CODE: Record<string, ApiErrorClass> = {
  validation_error: ValidationError,
  unauthorized: AuthenticationError,
  forbidden_ip: ForbiddenIpError,
  feature_not_enabled: FeatureNotEnabledError,
  not_found: NotFoundError,
  conflict: ConflictError,
  invalid_state: ConflictError,
  prohibited_rule: ProhibitedRuleError,
  internal_error: InternalServerError,
  bad_gateway: InternalServerError,
  unavailable: InternalServerError,
  gateway_timeout: InternalServerError,
};

/** The code a response without the contract's error body (an HTML page, nothing) is given, by status. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  422: 'prohibited_rule',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

/** What to do next, by status, appended to messages the service did not phrase itself. */
const ADVICE: Record<number, string> = {
  400: 'Check the request input.',
  401: 'Check that the API key is correct and belongs to this environment.',
  403: 'Check the key’s IP allow-list or ask the operator to enable the feature.',
  404: 'Check the id.',
  409: 'Read the current state and try again.',
  429: 'Wait before sending more requests.',
};

export interface ErrorResponse {
  status: number;
  headers: Headers;
  body: string;
  request: RequestSummary;
  /** The response's Retry-After, parsed once by the transport. */
  retryAfterMs?: number | undefined;
  /** For a rate-limit answer without Retry-After: the wait the SDK keeps instead (see `rateLimitedWait`). */
  rateLimitedWait?: (() => number) | undefined;
  /** The client's key, redacted wherever the service's text echoes it. */
  secret?: string | undefined;
}

/** Build the typed error for an error response; picks the class by `code` first, then by status. */
export function errorFromResponse(response: ErrorResponse): PartnerApiError {
  const { status, headers, request, secret } = response;
  const parsed = parseErrorBody(response.body);
  const requestIdText = headers.get('x-request-id');
  const requestId = requestIdText === null ? undefined : cleanText(requestIdText, secret, 100);
  // The service's words are cleaned: no control characters or ANSI codes, bounded, never the key.
  const serviceCode = parsed ? cleanText(parsed.code, secret, 64) : undefined;
  const code = serviceCode ?? codeForStatus(status);
  const where = `${request.method} ${request.path}`;
  const detail = parsed ? cleanText(parsed.message, secret) : describeBody(status, headers, response.body);
  const init: PartnerApiErrorInit = {
    status,
    code: code ?? '',
    serviceCode,
    message: `${detail} (${status}${code ? ` ${code}` : ''} from ${where}${requestId ? `, request ${requestId}` : ''})`,
    field: parsed?.field === undefined ? undefined : cleanText(parsed.field, secret, 100),
    requestId,
    headers,
    request,
    retryAfterMs: response.retryAfterMs,
  };
  if (status === 429 || code === 'rate_limited') {
    return new RateLimitError({ ...init, retryAfterMs: response.retryAfterMs ?? response.rateLimitedWait?.() ?? 0 });
  }
  // Own keys only: a code such as `constructor` must not pick up Object's.
  const ErrorClass =
    code !== undefined && Object.hasOwn(BY_CODE, code) ? (BY_CODE[code] as ApiErrorClass) : PartnerApiError;
  return new ErrorClass(init);
}

function parseErrorBody(body: string): { code: string; message: string; field?: string | undefined } | undefined {
  if (!body) return undefined;
  try {
    const parsed = errorBody.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
}

/** The code an answer without the service's error body is given; none for a status this version has no class for. */
function codeForStatus(status: number): string | undefined {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : undefined);
}

/** A readable message for a body that is not the contract's error shape: an HTML page, nothing, or garbage. */
function describeBody(status: number, headers: Headers, body: string): string {
  const advice =
    status >= 500
      ? 'The service or a proxy in front of it failed; a read can be tried again later, a write only after checking whether it took effect.'
      : (ADVICE[status] ?? '');
  const type = headers.get('content-type') ?? '';
  const what = !body.trim()
    ? 'an empty body'
    : type.includes('html') || /^\s*</.test(body)
      ? 'an HTML page (likely from a proxy or load balancer)'
      : 'a body that is not the service’s JSON error';
  return `The service answered HTTP ${status} with ${what}. ${advice}`.trim();
}
