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
import { parseRetryAfter } from './rate-limit/retry-after.js';

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
  now: number;
}

/** Build the typed error for an error response; picks the class by `code` first, then by status. */
export function errorFromResponse(response: ErrorResponse): PartnerApiError {
  const { status, headers, request } = response;
  const parsed = parseErrorBody(response.body);
  const requestId = headers.get('x-request-id') ?? undefined;
  const code = parsed?.code ?? codeForStatus(status);
  const where = `${request.method} ${request.path}`;
  const detail = parsed?.message ?? describeBody(status, headers, response.body);
  const init: PartnerApiErrorInit = {
    status,
    code,
    message: `${detail} (${status} ${code} from ${where}${requestId ? `, request ${requestId}` : ''})`,
    field: parsed?.field,
    requestId,
    headers,
    request,
  };
  if (status === 429 || code === 'rate_limited') {
    return new RateLimitError({ ...init, retryAfterMs: parseRetryAfter(headers.get('retry-after'), response.now) });
  }
  const ErrorClass = BY_CODE[code] ?? PartnerApiError;
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

function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : `http_${status}`);
}

/** A readable message for a body that is not the contract's error shape: an HTML page, nothing, or garbage. */
function describeBody(status: number, headers: Headers, body: string): string {
  const advice = status >= 500 ? 'The service or a proxy in front of it failed; retrying later is safe.' : (ADVICE[status] ?? '');
  const type = headers.get('content-type') ?? '';
  const what = !body.trim()
    ? 'an empty body'
    : type.includes('html') || /^\s*</.test(body)
      ? 'an HTML page (likely from a proxy or load balancer)'
      : 'a body that is not the service’s JSON error';
  return `The service answered HTTP ${status} with ${what}. ${advice}`.trim();
}
