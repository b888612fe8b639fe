/** An error the sandbox answers with the contract's body: `{ error: { code, message, field? } }`. */
export type ErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'forbidden_ip'
  | 'feature_not_enabled'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'invalid_state'
  | 'prohibited_rule'
  | 'rate_limited'
  | 'payload_too_large'
  | 'internal_error'
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'unsupported_media_type'
  | (string & {});

export const STATUS_OF: Record<string, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden_ip: 403,
  feature_not_enabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  prohibited_rule: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  forbidden_host: 403,
  forbidden_origin: 403,
  rate_limited: 429,
  internal_error: 500,
};

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS_OF[code] ?? 500;
  }

  body(): { error: { code: string; message: string; field?: string } } {
    return {
      error: { code: this.code, message: this.message, ...(this.field === undefined ? {} : { field: this.field }) },
    };
  }
}

export function notFound(what: string): ApiError {
  return new ApiError('not_found', `${what} was not found. Check the identifier; it is case-sensitive.`);
}

export function validation(field: string, message: string): ApiError {
  return new ApiError('validation_error', message, field);
}

/** The message of a 500: says retrying is safe and ends with a support reference (as the wire contract's errors section states). */
export function internalErrorMessage(ref: string): string {
  return `The sandbox failed unexpectedly. Retrying is safe; if it keeps failing, quote this reference to support (ref ${ref})`;
}
