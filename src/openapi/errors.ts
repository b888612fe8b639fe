import type { JsonSchema } from './json-schema.js';
import { SCHEMA_REF } from './components.js';

/** The error codes of the wire contract, by status, with what each means to a caller. */
export const ERROR_CODES = {
  validation_error: {
    status: 400,
    says:
      'Invalid input: a malformed value, a missing field, or a field or query parameter the API does not ' +
      'recognise (never silently ignored). `field` names it, e.g. `address.state`.',
  },
  unauthorized: {
    status: 401,
    says: 'No key, or a key that is not valid here (a `crp_live_` key on the sandbox, a key this sandbox did not issue).',
  },
  forbidden_ip: { status: 403, says: "The caller's address is outside the key's IP allow-list." },
  feature_not_enabled: { status: 403, says: 'The feature is built but not switched on yet (dashboard tokens).' },
  not_found: { status: 404, says: 'No such path, store, booking or sample batch (ids are case-sensitive).' },
  method_not_allowed: {
    status: 405,
    says: 'The path exists, not with this method; the `Allow` header lists the methods it takes.',
  },
  conflict: {
    status: 409,
    says: 'The `partner_location_id` is enrolled with another name or address: change a store with PATCH, enroll another store under another id.',
  },
  invalid_state: {
    status: 409,
    says: "The store's or batch's state does not allow this (pausing or resuming a terminated store, deciding a batch that is not awaiting a decision).",
  },
  payload_too_large: { status: 413, says: 'The request body is over 256 KiB.' },
  prohibited_rule: {
    status: 422,
    says: 'Store rules that select creators by ethnicity, age or gender; `field` names the rule.',
  },
  rate_limited: {
    status: 429,
    says: "Over the key's rate limit: wait `Retry-After`, then retry. Refused requests use no budget.",
  },
  internal_error: {
    status: 500,
    says: 'The service failed. Retrying is safe; the message ends with `(ref XXXXXXXX)` for support.',
  },
  unavailable: {
    status: 503,
    says: 'The service (or a proxy before it) is briefly unavailable: wait `Retry-After` when given, then retry. The body may not be JSON.',
  },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes any call to the service can get, whatever the endpoint. */
export const EVERY_CALL: readonly ErrorCode[] = [
  'validation_error',
  'unauthorized',
  'forbidden_ip',
  'rate_limited',
  'internal_error',
  'unavailable',
];

/** Answers given before the key is accepted or the rate limit counted carry no RateLimit-* headers. */
const BEFORE_RATE_LIMIT = new Set([401, 403, 500, 503]);

/** The error body every failure has: `{ "error": { "code", "message", "field"? } }`. */
export const errorBodySchema: JsonSchema = {
  type: 'object',
  description:
    'Every error: branch on `error.code`. A client must also handle a code or status it does not know, and ' +
    "bodies that are not JSON (a proxy's HTML page, an empty body).",
  properties: {
    error: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          description: 'What went wrong, for a program to branch on (see each response for the codes it may carry).',
        },
        message: { type: 'string', description: 'What happened and what to do, for a person.' },
        field: {
          type: 'string',
          description:
            'The refused input, as a dotted path into the body (`address.state`), a query parameter or a path parameter; only on refused input.',
        },
      },
      required: ['code', 'message'],
      additionalProperties: {},
    },
  },
  required: ['error'],
  additionalProperties: {},
};

/** Header components: the request id, the rate-limit headers and Retry-After. */
export const headers: Record<string, { description: string; required?: true; schema: JsonSchema }> = {
  'X-Request-Id': {
    description: 'The id of this request; quote it to support.',
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests the key may make per window (600 by default).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description: 'The quota and window, e.g. `600;w=60` (600 requests per 60 seconds).',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'How long to wait before retrying: delay-seconds (`20`); an HTTP-date must also be understood.',
    schema: { type: 'string' },
  },
};

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/**
 * The response headers of an answer with `status` from the service (the control API sends only
 * content-type). An answer given before the key is accepted or the budget counted may lack the
 * rate-limit headers: there they are written out, not required, since nothing may override a
 * `$ref`'s `required`.
 */
export function responseHeaders(status: number): Record<string, object> {
  const out: Record<string, object> = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  const rated = !BEFORE_RATE_LIMIT.has(status);
  for (const name of RATE_HEADERS) {
    const { required: _always, description, ...rest } = headers[name] as (typeof headers)[string];
    out[name] = rated
      ? { $ref: `#/components/headers/${name}` }
      : {
          ...rest,
          description: `${description} Absent when the answer came before the key was accepted or the budget counted.`,
        };
  }
  if (status === 429 || status === 503) out['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  return out;
}

/** The schema name of the error body with one code. */
export function errorSchemaName(code: string): string {
  return `Error_${code}`;
}

/**
 * Codes no documented operation answers: a 405 comes only from a method the document does not
 * list for the path, so a schema for it would be a component nothing refers to.
 */
const NO_OPERATION_ANSWERS: ReadonlySet<string> = new Set<ErrorCode>(['method_not_allowed']);

/** One error body schema per code an operation can answer: the error body with `code` fixed. */
export function errorSchemas(codes: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    codes
      .filter((code) => !NO_OPERATION_ANSWERS.has(code))
      .map((code) => [
        errorSchemaName(code),
        {
          type: 'object',
          allOf: [{ $ref: `${SCHEMA_REF}ErrorBody` }],
          properties: { error: { type: 'object', properties: { code: { const: code } } } },
        },
      ]),
  );
}

/**
 * Error answers as reusable responses: `responses` gets one per status and set of codes (its
 * name, e.g. `not_found` or `forbidden_ip_or_feature_not_enabled`, prefixed for the control API),
 * and an operation refers to it by status.
 */
export class ErrorResponses {
  readonly responses: Record<string, object> = {};

  constructor(
    private readonly prefix: string,
    private readonly describe: (code: string) => string,
    private readonly headersFor: (status: number) => object,
  ) {}

  /** An operation's error responses for `codes`, by status. */
  for(codes: readonly string[]): Record<string, { $ref: string }> {
    const byStatus = new Map<number, string[]>();
    for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
    return Object.fromEntries(
      [...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, at]) => [String(status), { $ref: `#/components/responses/${this.#response(status, at)}` }]),
    );
  }

  #response(status: number, codes: string[]): string {
    const name = `${this.prefix}${codes.join('_or_')}`;
    const refs = codes.map((code) => ({ $ref: `${SCHEMA_REF}${errorSchemaName(code)}` }));
    this.responses[name] ??= {
      description: codes.map((code) => `\`${code}\`: ${this.describe(code)}`).join(' '),
      headers: this.headersFor(status),
      content: { 'application/json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs } } },
    };
    return name;
  }
}

export function statusOf(code: string): number {
  const known = ERROR_CODES[code as ErrorCode];
  if (!known) throw new Error(`Unknown error code ${code}: add it to ERROR_CODES`);
  return known.status;
}
