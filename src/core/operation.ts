/**
 * One call's request as data: the row of the operation table it names, its arguments checked
 * against the row (body, query, path ids, refused before anything is sent), and the path filled
 * in so that no id can change its shape.
 */
import type * as z from 'zod/mini';
import { check } from '../schemas/validate.js';
import type { PartnerApiError } from './errors.js';
import { refusedBeforeSending } from './refusal.js';
import type { Settle } from './request.js';
import type { RetrySafety } from './retry-policy.js';

/** Query values as they go on the wire: a list becomes comma-separated, booleans `true`/`false`. */
export type WireQuery = Record<string, string | number | boolean | undefined>;

/**
 * One endpoint, as data: everything the transport needs to send a call and check its answer, and
 * everything the OpenAPI document says of it. The table of rows lives in src/resources; core
 * reads rows without knowing any of them.
 */
export interface Operation<T = unknown> {
  /** The SDK method as a partner calls it, e.g. `locations.get`; reported to telemetry. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Route under the API prefix with `{id}` placeholders, e.g. `/locations/{partner_location_id}`. */
  route: string;
  /** Each placeholder of `route` and what its value must look like. */
  path?: Record<string, z.ZodMiniType<string>>;
  /** The query's schema, and the name of its type in src/schemas (the document reads its TSDoc). */
  query?: { schema: z.ZodMiniType; type: string; toWire?: (query: never) => WireQuery };
  /** The body's schema and its type's name; `refuse` runs first, for refusals a schema cannot word. */
  body?: { schema: z.ZodMiniType; type: string; refuse?: (body: unknown) => void };
  response: z.ZodMiniType<T>;
  /** The item schema of a paged list (`response` is then its page). */
  item?: z.ZodMiniType;
  retry: RetrySafety;
  /** What to add to an error's message, by its code, in terms of this SDK rather than HTTP. */
  advice?: ErrorAdvice;
  /** For the OpenAPI document: tag, summary, longer words, codes beyond those any call gets, and the 201's meaning. */
  doc: { tag: string; summary: string; description?: string; errors: readonly string[]; created?: string };
}

/** Added to a `PartnerApiError`'s message by code; sees the call's input. */
export type ErrorAdvice = Partial<Record<string, (error: PartnerApiError, input: CallInput) => string>>;

/** One call's arguments, as the caller gave them: the transport checks them against the row. */
export interface CallInput {
  params?: Record<string, string>;
  query?: unknown;
  /** The page a list walk asks for, added to the checked query. */
  page?: { cursor: string | undefined; limit: number | undefined };
  body?: unknown;
  /**
   * For a call that is not blindly repeatable: how to tell, when a repeat is refused with 409
   * after an earlier attempt failed in a way the service may have acted on, whether that attempt
   * did take effect. Without it, the refusal is the call's error.
   */
  settle?: Settle<unknown>;
}

/** What goes on the wire for one call: the path (ids encoded), the query and the body, all checked. */
export interface Outgoing {
  /** Under the API prefix, starting with `/`. */
  path: string;
  query: WireQuery | undefined;
  body: unknown;
}

/**
 * Checks a call's input against its row, in the order the service checks it (body, query, path
 * ids): refused input throws the refusal, with nothing sent.
 */
export function outgoing(operation: Operation, input: CallInput): Outgoing {
  const { body: bodySpec, query: querySpec, path: ids } = operation;
  let body = input.body;
  if (bodySpec) {
    bodySpec.refuse?.(body);
    body = parseInput(bodySpec.schema, body);
  }
  let query = input.query as WireQuery | undefined;
  if (querySpec) {
    const checked = parseInput(querySpec.schema, input.query) as never;
    query = querySpec.toWire ? querySpec.toWire(checked) : checked;
  }
  const { page } = input;
  if (page) query = { ...query, ...(page.limit === undefined ? {} : { limit: page.limit }), cursor: page.cursor };
  if (ids) for (const name in ids) parseInput(ids[name] as z.ZodMiniType<string>, input.params?.[name], name);
  return { path: fillRoute(operation.route, input.params), query, body };
}

/**
 * Refuse input the service would refuse, before anything is sent, with the same error class and
 * `field` the service would give, so callers need one branch for both.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, root?: string): z.infer<S> {
  const result = check(schema, value, root);
  if (result.ok) return result.value;
  throw refusedBeforeSending(result.problem.message, result.problem.field);
}

/** A path segment a URL parser would drop (`.`) or climb (`..`), once every disguise is taken off. */
const DOT_SEGMENT = /^\.{1,2}$/;
/** Rounds of percent-decoding tried: a server or proxy may decode a path more than once. */
const DECODE_ROUNDS = 8;
/** Byte sequences (after percent-decoding) that some servers read as a dot: overlong UTF-8, and NFKC look-alikes (U+FF0E, U+2024, U+FE52). */
const DOT_LOOKALIKES = /\xC0\xAE|\xE0\x80\xAE|\xEF\xBC\x8E|\xE2\x80\xA4|\xEF\xB9\x92|[\uFF0E\u2024\uFE52]/g;

/**
 * Whether any decoding of `path` a server might do holds a dot-segment: `%2e`/`%2E` (which the
 * WHATWG URL parser itself climbs), double encoding (`%252e`), decoded `%2f`/`%5c` separators and
 * backslashes, `;params` (`..;x`), a NUL or spaces after the dots, and dot look-alikes. A path still
 * percent-encoded after {@link DECODE_ROUNDS} rounds counts as one: nothing legitimate nests that deep.
 */
export function hasDotSegment(path: string): boolean {
  let text = path;
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (text.replace(DOT_LOOKALIKES, '.').split(/[/\\]/).some(isDotPiece)) return true;
    const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (decoded === text) return false;
    text = decoded;
  }
  return true;
}

function isDotPiece(segment: string): boolean {
  return DOT_SEGMENT.test(segment.replace(/[;\0].*$/s, '').trim());
}

/**
 * Each route split once into its text and `{name}` parts (text at even indices, names at odd).
 * The SDK's routes are a few dozen; paths of `client.request()` are a caller's, so the cache is capped.
 */
const templates = new Map<string, string[]>();
const MAX_TEMPLATES = 256;

/**
 * Fill a route template such as `/locations/{partner_location_id}/pause`, percent-encoding each
 * value so an id can never change the path's shape. The resources check each id against its
 * schema first; this is the last guard, for any route: an empty value or a dot-segment is refused.
 */
export function fillRoute(route: string, params: Record<string, string> = {}): string {
  let parts = templates.get(route);
  if (!parts) {
    parts = route.split(/\{(\w+)\}/);
    if (templates.size < MAX_TEMPLATES) templates.set(route, parts);
  }
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw refusedBeforeSending(`${name} is required`, name);
    const encoded = encodeURIComponent(value);
    // The encoded form is checked too: `%2e%2e` goes out as `%252e%252e`, `..` to a server that decodes twice.
    if (hasDotSegment(encoded))
      throw refusedBeforeSending(
        `${name} must not be "." or ".." in any spelling (%2e, %252e, ..;x): a URL would drop or climb that path segment`,
        name,
      );
    path += encoded + (parts[i + 1] as string);
  }
  return path;
}
