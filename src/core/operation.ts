import type * as z from 'zod/mini';
import type { PartnerApiError } from './errors.js';
import { parseInput } from './input.js';
import { fillRoute } from './path.js';
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
