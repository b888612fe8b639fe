import * as z from 'zod/mini';
import { ConfigurationError } from './errors.js';
import { refuseUnknown } from './config.js';
import { hasDotSegment } from './operation.js';
import type { CallInput, Operation } from './operation.js';

/** A call to an endpoint this SDK version does not know yet (`client.request()`). */
export interface RawRequest {
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under `/partner/v1`, starting with `/`, ids already percent-encoded, e.g. `/summary`. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body. */
  body?: unknown;
  /**
   * Sending this call twice does no harm: repeat it also after a 502, 504, time-out or dropped
   * connection, where the service may already have acted. GET is always safe. @default false
   */
  retrySafe?: boolean;
}

const FIELDS = new Set(['method', 'path', 'query', 'body', 'retrySafe']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
// Segments of unreserved and sub-delim characters and %XX escapes; no query, fragment or braces.
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+)+$/;
/** Any JSON: built once, shared by every raw request. */
const ANY_JSON = z.unknown();
const UNDOCUMENTED = { tag: '', summary: '', errors: [] };

export function rawCall(raw: RawRequest): { operation: Operation; input: CallInput } {
  refuseUnknown('request.', raw, FIELDS);
  if (!METHODS.has(raw.method)) {
    throw new ConfigurationError(`client.request(): method must be one of ${[...METHODS].join(', ')}.`);
  }
  if (typeof raw.path !== 'string' || !PATH.test(raw.path)) {
    throw new ConfigurationError(
      "client.request(): path must start with '/', be relative to /partner/v1 (e.g. '/summary'), and carry no query, fragment or unencoded special characters.",
    );
  }
  // `/%2e%2e/_sandbox/reset` would leave /partner/v1 with the API key on it: the URL parser climbs `%2e%2e` too.
  if (hasDotSegment(raw.path)) {
    throw new ConfigurationError(
      "client.request(): path must not hold a '.' or '..' segment in any spelling (%2e, %252e, ..;x, %2f.., " +
        '%5c..): a URL parser or server would climb out of /partner/v1. Nothing was sent.',
    );
  }
  const safe = raw.method === 'GET' || raw.retrySafe === true;
  return {
    operation: {
      name: 'request',
      method: raw.method as Operation['method'],
      route: raw.path,
      response: ANY_JSON,
      retry: safe ? 'safe' : 'unsafe',
      doc: UNDOCUMENTED,
    },
    input: {
      ...(raw.query === undefined ? {} : { query: raw.query }),
      ...(raw.body === undefined ? {} : { body: raw.body }),
    },
  };
}
