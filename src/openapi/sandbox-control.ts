import { FAULT_KINDS } from '../testing/faults/faults.js';
import { MAX_GLOB_LENGTH } from '../testing/faults/path-glob.js';
import { clockRoutes } from '../testing/http/control/clock-control.js';
import { DURATION_PARTS } from '../testing/simulation/clock.js';
import { CONTROL_PREFIX } from '../testing/http/control/control.js';
import type { ControlRoute } from '../testing/http/control/control-route.js';
import { dataRoutes } from '../testing/http/control/data-control.js';
import { faultRoutes } from '../testing/http/control/faults-control.js';
import { keyRoutes } from '../testing/http/control/keys-control.js';
import type { JsonSchema } from './json-schema.js';

export const SANDBOX_TAG = {
  name: 'Sandbox control',
  description:
    "The sandbox's own control API under `/_sandbox` (clock, faults, keys, populate, change and request " +
    'logs, reset), and this document. Not part of the service: production has none of it. Over a port, a ' +
    "`Host` other than the sandbox's own address (or an allowed name) gets 403 `forbidden_host`; a control " +
    'call from a web page (`Origin`, or `Sec-Fetch-Site` other than `none`) gets 403 `forbidden_origin`; a ' +
    'control POST without `Content-Type: application/json` gets 415 `unsupported_media_type`. See ' +
    'docs/sandbox.md.',
};

/** A control call as the document states it; method, path and one-line summary come from the sandbox's route table. */
interface ControlDoc {
  body?: JsonSchema;
  /** Bodies a fresh sandbox accepts, by name (test/openapi/control-bodies.test.ts sends each one). */
  examples?: Record<string, Record<string, unknown>>;
  query?: Record<string, JsonSchema & { description: string }>;
  /** The success status and its body. */
  status?: number;
  answer: JsonSchema;
  /** Needs the account's key in Authorization (whose data it reads or fills). */
  key?: boolean;
}

const instant: JsonSchema = { type: 'string', description: 'ISO 8601 instant, UTC.' };
const nowBody: JsonSchema = object({ now: instant });
const pending: JsonSchema = { type: 'integer', minimum: 0, description: 'Queued faults still to apply.' };
const pathMatch = {
  path: {
    type: 'string',
    minLength: 1,
    description: 'Apply only to requests for this exact path, e.g. `/partner/v1/reservations`.',
  },
  pathPattern: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_GLOB_LENGTH,
    description:
      'Or: a glob the whole path must match, `*` standing for any run of characters (`/` included), e.g. ' +
      '`/partner/v1/locations/*`. Case-sensitive; not a RegExp. Not together with `path`.',
  },
  method: { type: 'string', minLength: 1, description: 'Apply only to this method.' },
  when: {
    enum: ['before', 'after'],
    description: '`before` (default) answers instead of the service; `after` lets the request take effect first.',
  },
} satisfies Record<string, JsonSchema>;
const faultShape = {
  status: { type: 'integer', minimum: 100, maximum: 599, description: 'Answer with this status.' },
  body: {
    enum: ['json', 'html', 'empty'],
    description:
      "`json` (default): the error body with the status's usual code; `html`: a proxy's page; `empty`: no body.",
  },
  headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra response headers.' },
  delayMs: { type: 'integer', minimum: 0, maximum: 600_000, description: 'Real milliseconds to wait first.' },
  hang: { const: true, description: 'Never answer; the connection stays open until the client gives up.' },
  reset: { const: true, description: 'Drop the connection.' },
  malformed: { const: true, description: '200 with the JSON cut off halfway.' },
} satisfies Record<string, JsonSchema>;
const logPage = (item: JsonSchema): JsonSchema =>
  object({
    items: { type: 'array', items: item },
    next_after: {
      type: ['integer', 'null'],
      description: 'The `after` for the next page; null when nothing follows yet.',
    },
  });
const logQuery = {
  after: { type: 'integer', minimum: 0, description: 'Only entries with `seq` above this. Default 0.' },
  limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'At most this many entries. Default 100.' },
};

/** `path` and `pathPattern` together are refused: a generated client should not be able to send both. */
const PATH_AND_PATTERN: JsonSchema = {
  description: 'Not `path` and `pathPattern` together.',
  properties: { path: {}, pathPattern: {} },
  required: ['path', 'pathPattern'],
};

const PART_WORDS: Record<(typeof DURATION_PARTS)[number], string> = {
  days: 'Days of 24 hours.',
  hours: 'Hours.',
  minutes: 'Minutes.',
  ms: 'Milliseconds.',
};

const DOCS: Record<string, ControlDoc> = {
  'GET /clock': { answer: nowBody },
  'POST /clock/advance': {
    body: {
      description:
        'One of three forms: `{ "by_ms": n }`; any of `days`, `hours`, `minutes`, `ms` (they add up, ' +
        'e.g. `{ "days": 1 }`); or `{ "to": ISO }`. Forward only, at most 366 days a call.',
      oneOf: [
        object({ by_ms: { type: 'number', minimum: 0, description: 'Milliseconds to move on (86400000 is a day).' } }),
        {
          ...object(
            Object.fromEntries(
              DURATION_PARTS.map((part) => [part, { type: 'number', minimum: 0, description: PART_WORDS[part] }]),
            ),
          ),
          required: [],
          minProperties: 1,
        },
        object({
          to: { type: 'string', description: 'An ISO 8601 instant to move to, not before the current simulated time.' },
        }),
      ],
    },
    examples: {
      by_ms: { by_ms: 3_600_000 },
      days: { days: 1 },
      parts: { days: 1, hours: 2, minutes: 30 },
      to: { to: '2026-12-08T09:00:00Z' },
    },
    answer: nowBody,
  },
  'GET /faults': { answer: object({ pending }) },
  'POST /faults': {
    body: {
      ...object({
        ...faultShape,
        ...pathMatch,
        times: {
          type: 'integer',
          minimum: 1,
          maximum: 1_000_000,
          description: 'How many matching requests (default 1).',
        },
      }),
      required: [],
      not: PATH_AND_PATTERN,
    },
    examples: {
      status: { status: 503, times: 2 },
      hang: { hang: true, pathPattern: '/partner/v1/locations/*' },
      resetAfter: { reset: true, when: 'after', method: 'POST' },
    },
    status: 201,
    answer: object({ pending }),
  },
  'POST /faults/random': {
    body: {
      ...object({
        ...pathMatch,
        rate: { type: 'number', minimum: 0, maximum: 1, description: 'Share of matching requests to fault.' },
        kinds: {
          type: 'array',
          items: { anyOf: [{ enum: [...FAULT_KINDS] }, { ...object(faultShape), required: [] }] },
          description: 'Faults to draw from: names or shapes.',
        },
        seed: { type: 'integer', minimum: 0, maximum: 2 ** 32 - 1, description: 'Seed of the draws.' },
      }),
      required: ['rate'],
      not: PATH_AND_PATTERN,
    },
    examples: {
      kinds: { rate: 0.1, kinds: ['unavailable', 'reset'], seed: 7 },
      shapes: { rate: 0.5, kinds: [{ status: 500 }], path: '/partner/v1/summary' },
    },
    answer: object({ random: { const: true }, pending }),
  },
  'DELETE /faults': { answer: object({ pending }) },
  'POST /keys': {
    body: {
      ...object({
        allowIps: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          maxItems: 100,
          description: 'IP addresses or CIDR ranges the key may call from (up to 100).',
        },
        rateLimit: {
          ...object({ limit: { type: 'integer', minimum: 1 }, windowMs: { type: 'integer', minimum: 1 } }),
          required: [],
          description: "The key's budget; a field left out is the sandbox's own.",
        },
        account: {
          type: 'string',
          minLength: 1,
          description: 'A key this sandbox issued: the new key joins its account (default: a new account).',
        },
      }),
      required: [],
    },
    examples: { plain: {}, limited: { allowIps: ['10.0.0.0/8', '127.0.0.1'], rateLimit: { limit: 10 } } },
    status: 201,
    answer: object({ key: { type: 'string', description: 'A new `crp_test_` key.' }, account_id: { type: 'string' } }),
  },
  'POST /populate': {
    key: true,
    body: {
      ...object({
        locations: { type: 'integer', minimum: 0, maximum: 100_000, description: 'Stores to enroll.' },
        reservationsPerLocation: {
          type: 'integer',
          minimum: 0,
          maximum: 10_000,
          description: 'Bookings per store (at most 2,000,000 in all).',
        },
        idPrefix: { type: 'string', pattern: '^[A-Za-z0-9._:-]{0,100}$', description: "Prefix of the stores' ids." },
      }),
      required: ['locations'],
    },
    examples: { stores: { locations: 3, reservationsPerLocation: 5, idPrefix: 'demo-' } },
    status: 201,
    answer: object({
      locationIds: { type: 'array', items: { type: 'string' } },
      reservations: { type: 'integer', minimum: 0 },
    }),
  },
  'GET /changes': {
    key: true,
    query: logQuery,
    answer: logPage({
      ...object({
        seq: { type: 'integer', description: '1, 2, 3 … across the whole sandbox.' },
        at: instant,
        partner_location_id: { type: 'string' },
        type: { enum: ['reservation.created', 'reservation.updated', 'video.published'] },
        reservation_id: { type: 'string' },
        video_id: { type: 'string', description: '`video.published` only.' },
        changed: {
          type: 'array',
          items: { enum: ['status', 'acknowledged_kind'] },
          description: '`reservation.updated` only.',
        },
        status: { type: 'string', description: "`reservation.*`: the booking's status after the change." },
        acknowledged_kind: {
          type: ['string', 'null'],
          description: "`reservation.*`: the booking's acknowledged_kind after the change.",
        },
      }),
      required: ['seq', 'at', 'partner_location_id', 'type', 'reservation_id'],
    }),
  },
  'GET /requests': {
    query: logQuery,
    answer: logPage({
      ...object({
        seq: { type: 'integer' },
        method: { type: 'string' },
        path: { type: 'string', description: 'Without the query.' },
        status: { type: 'integer', description: 'What the caller saw; 0 for no answer (reset, hang).' },
        requestId: { type: 'string' },
        at: { type: 'number', description: 'Epoch milliseconds of the rate-limit clock.' },
        serviceStatus: { type: 'integer', description: 'What the service produced, when it ran.' },
        fault: { type: 'string', description: 'The fault that shaped the answer, if any.' },
        headers: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Request headers, names in lower case, keys redacted.',
        },
      }),
      required: ['seq', 'method', 'path', 'status', 'requestId', 'at', 'headers'],
    }),
  },
  'POST /reset': {
    body: { type: 'object', maxProperties: 0, description: 'No body, or `{}`.' },
    examples: { empty: {} },
    answer: nowBody,
  },
};

/** The control API's paths, from the sandbox's own route table (a route without a doc here stops the build). */
export function controlPaths(
  errorResponse: (codes: string[]) => Record<string, object>,
): Record<string, Record<string, object>> {
  const routes: ControlRoute[] = [...clockRoutes, ...faultRoutes, ...keyRoutes, ...dataRoutes];
  const paths: Record<string, Record<string, object>> = {
    [CONTROL_PREFIX]: {
      get: operation(
        'GET',
        '',
        'The control endpoints, one line each',
        { answer: object({ endpoints: { type: 'array', items: { type: 'string' } } }) },
        errorResponse,
      ),
    },
    '/openapi.json': {
      get: {
        operationId: 'sandbox.openapi',
        tags: [SANDBOX_TAG.name],
        summary: 'This document (OpenAPI 3.1)',
        security: [],
        responses: {
          '200': {
            description:
              'The OpenAPI document of the service and of this control API; `servers` names the address it was fetched from.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '403': {
            description:
              "`forbidden_host`: over a port, a `Host` that is not one of the sandbox's own names (or an allowed one); see the tag.",
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
          },
        },
      },
    },
  };
  const documented = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const doc = DOCS[key];
    if (!doc) throw new Error(`The control route ${key} has no entry in src/openapi/sandbox-control.ts`);
    documented.add(key);
    (paths[`${CONTROL_PREFIX}${route.path}`] ??= {})[route.method.toLowerCase()] = operation(
      route.method,
      route.path,
      route.summary,
      doc,
      errorResponse,
    );
  }
  const stale = Object.keys(DOCS).filter((key) => !documented.has(key));
  if (stale.length > 0)
    throw new Error(`src/openapi/sandbox-control.ts documents control routes the sandbox lacks: ${stale.join(', ')}`);
  return paths;
}

function operation(
  method: string,
  path: string,
  summary: string,
  doc: ControlDoc,
  errorResponse: (codes: string[]) => Record<string, object>,
): object {
  const admin = { sandboxAdmin: [] };
  return {
    operationId: `sandbox.${method.toLowerCase()}${path.replace(/\/(\w)/g, (_, c: string) => c.toUpperCase()) || 'Index'}`,
    tags: [SANDBOX_TAG.name],
    summary,
    // The admin token is needed only when the sandbox was started with one.
    security: doc.key ? [{ bearerAuth: [] }, { bearerAuth: [], ...admin }] : [{}, admin],
    ...(doc.query
      ? {
          parameters: Object.entries(doc.query).map(([name, { description, ...schema }]) => ({
            name,
            in: 'query',
            required: false,
            description,
            schema,
          })),
        }
      : {}),
    ...(doc.body
      ? { requestBody: { required: false, content: { 'application/json': { schema: doc.body, ...examplesOf(doc) } } } }
      : {}),
    responses: {
      [String(doc.status ?? 200)]: { description: summary, content: { 'application/json': { schema: doc.answer } } },
      ...errorResponse(['validation_error', 'unauthorized']),
    },
  };
}

function examplesOf(doc: ControlDoc): { examples?: Record<string, { value: unknown }> } {
  if (!doc.examples) return {};
  return { examples: Object.fromEntries(Object.entries(doc.examples).map(([name, value]) => [name, { value }])) };
}

/** An object whose every listed field is required and nothing else is sent. */
function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
