import type * as z from 'zod/mini';
import { addressInput, address, errorBody, hours, hoursInput, weeklyHours } from '../schemas/common.js';
import { creator, sampleBatch } from '../schemas/creators.js';
import { video } from '../schemas/content.js';
import { batchId, reservationId } from '../schemas/ids.js';
import { contactInput, dashboardToken, location, locationId, planInput, rulesInput } from '../schemas/locations.js';
import { priceQuote } from '../schemas/pricing.js';
import { billingRow, summary } from '../schemas/reports.js';
import { reservation, reservationCreator } from '../schemas/reservations.js';
import { settings } from '../schemas/settings.js';
import { SCHEMA_REF, toComponents, toSchema } from './components.js';
import { FieldDocs } from './descriptions.js';
import {
  ERROR_CODES,
  EVERY_CALL,
  ErrorResponses,
  errorBodySchema,
  errorSchemas,
  headers,
  responseHeaders,
} from './errors.js';
import type { JsonSchema } from './json-schema.js';
import type { Operation } from '../core/operation.js';
import { API_PREFIX } from '../core/config.js';
import { OPERATIONS } from '../resources/operations.js';
import { SANDBOX_TAG, controlPaths } from './sandbox-control.js';

/** Tags, in the order a reader meets them. */
const TAGS = [
  { name: 'Stores', description: 'Enroll, read, change, pause, resume and terminate stores (`/locations`).' },
  { name: 'Bookings', description: "Creators' bookings (`reservations`) and their acknowledgement." },
  { name: 'Videos', description: 'Videos creators published for a store.' },
  { name: 'Creators', description: 'Creators named for a store, and sample review.' },
  { name: 'Reports', description: 'Account-wide summary and monthly billing counts.' },
  { name: 'Pricing and settings', description: "Price quotes and the partner's surcharge per video." },
];

/** Response schemas under their TypeScript names (the field descriptions are read from those types). */
const RESPONSES = new Map<z.ZodMiniType, string>([
  [location, 'Location'],
  [address, 'Address'],
  [hours, 'Hours'],
  [reservation, 'Reservation'],
  [reservationCreator, 'ReservationCreator'],
  [video, 'Video'],
  [creator, 'Creator'],
  [sampleBatch, 'SampleBatch'],
  [summary, 'Summary'],
  [billingRow, 'BillingRow'],
  [settings, 'Settings'],
  [priceQuote, 'PriceQuote'],
  [dashboardToken, 'DashboardToken'],
]);

/** Request body parts reused across bodies (each body's own schema is named by its operation). */
const REQUEST_PARTS = new Map<z.ZodMiniType, string>([
  [addressInput, 'AddressInput'],
  [hoursInput, 'HoursInput'],
  [weeklyHours, 'WeeklyHours'],
  [planInput, 'PlanInput'],
  [contactInput, 'ContactInput'],
  [rulesInput, 'RulesInput'],
]);

const PATH_PARAMS: Record<string, { schema: z.ZodMiniType; description: string }> = {
  partner_location_id: {
    schema: locationId,
    description: 'Your own id for the store: 1..128 letters, digits, `.`, `_`, `:`, `-`.',
  },
  reservation_id: { schema: reservationId, description: "The booking's id, as the service gave it." },
  batch_id: { schema: batchId, description: "The sample batch's id, as the service gave it." },
};

const DESCRIPTION =
  `The Partner Interface for Restaurant Platforms (\`${API_PREFIX}\`), ` +
  `and the control API of its sandbox (\`crp-sandbox\`, tag "${SANDBOX_TAG.name}").

Generated from the schemas the TypeScript SDK (\`@crp/partner-sdk\`) checks requests and responses with, ` +
  `so it says what the SDK sends and accepts. docs/http.md walks through it with curl and Python.

- **Auth**: \`Authorization: Bearer <key>\` on every service call (\`crp_test_\` keys on the sandbox, \`crp_live_\` in production).
- **JSON** in and out. Responses may carry fields not listed here: keep them, never fail on them; an enum value you do not know (a new status) may arrive.
- **Errors**: \`{ "error": { "code", "message", "field"? } }\`; branch on \`code\`.
- **Lists**: \`{ items, next_cursor }\`; pass \`next_cursor\` back as \`cursor\` for the next page; ` +
  `null, empty or missing means the last page. \`limit\` 1..200, default 50.
- **Rate limit**: 600 requests a minute per key by default; \`RateLimit-*\` headers on every answer after the key is accepted; 429 with \`Retry-After\`.
- **Retry safety**: each operation's \`x-retry-safe\` says whether repeating it is safe (every operation but the sample decision).`;

/** The OpenAPI 3.1 document of the service and the sandbox's control API. */
export async function buildDocument(): Promise<Record<string, unknown>> {
  const operations: Operation[] = Object.values(OPERATIONS);
  // Page schemas are made in the operation table: named after their items (`ReservationPage`).
  const outputs = new Map(RESPONSES);
  for (const operation of operations) {
    if (outputs.has(operation.response)) continue;
    const itemName = operation.item && outputs.get(operation.item);
    if (!itemName) throw new Error(`${operation.name}: its response schema has no name in src/openapi/document.ts`);
    outputs.set(operation.response, `${itemName}Page`);
  }
  const inputs = new Map(REQUEST_PARTS);
  for (const operation of operations) if (operation.body) inputs.set(operation.body.schema, operation.body.type);

  const docs = new FieldDocs('src/schemas/index.ts');
  const schemas: Record<string, JsonSchema> = {
    ...toComponents(outputs, 'output'),
    ...toComponents(inputs, 'input'),
  };
  for (const [name, schema] of Object.entries(schemas)) {
    if (name.endsWith('Page')) describePage(schema);
    else docs.annotate(schema, name);
  }
  schemas.ErrorBody = errorBodySchema;
  Object.assign(schemas, errorSchemas(Object.keys(ERROR_CODES)));
  void errorBody; // the SDK's own reading of the same body (src/schemas/common.ts)

  const serviceErrors = new ErrorResponses('', describeCode, responseHeaders);
  const controlErrors = new ErrorResponses('sandbox_', describeControlCode, () => ({}));
  const paths: Record<string, Record<string, object>> = {};
  for (const { name, doc, ...spec } of operations) {
    const safe = spec.retry === 'safe';
    const success = {
      description: `Success: ${outputs.get(spec.response) ?? ''}.`,
      headers: responseHeaders(200),
      content: json(ref(outputs.get(spec.response) as string)),
    };
    (paths[`${API_PREFIX}${spec.route}`] ??= {})[spec.method.toLowerCase()] = {
      operationId: name,
      tags: [doc.tag],
      summary: doc.summary,
      description: [
        doc.description,
        safe ? 'Safe to retry.' : 'Not safe to retry blindly (see above).',
        `SDK: \`client.${name}()\`.`,
      ]
        .filter(Boolean)
        .join('\n\n'),
      'x-retry-safe': safe,
      parameters: [
        ...pathParameters(spec.route),
        ...(spec.query ? queryParameters(spec.query.schema, spec.query.type, docs) : []),
      ],
      ...(spec.body ? { requestBody: { required: true, content: json(ref(spec.body.type)) } } : {}),
      responses: {
        ...(doc.created ? { '201': { ...success, description: doc.created } } : {}),
        '200': doc.created
          ? { ...success, description: 'Already enrolled with the same name and address: the same store.' }
          : success,
        ...serviceErrors.for([...EVERY_CALL, ...doc.errors]),
      },
    };
  }
  Object.assign(
    paths,
    controlPaths((codes) => controlErrors.for(codes)),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Interface for Restaurant Platforms',
      version: 'v1',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'http://127.0.0.1:4010',
        description: "crp-sandbox on its default port (production's base address comes with access)",
      },
    ],
    tags: [...TAGS, SANDBOX_TAG],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas,
      responses: { ...serviceErrors.responses, ...controlErrors.responses },
      headers,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key: `crp_test_…` on the sandbox, `crp_live_…` in production.',
        },
        sandboxAdmin: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Sandbox-Admin-Token',
          description: 'Only when the sandbox was started with --admin-token (or the adminToken option).',
        },
      },
    },
  };
}

function ref(name: string): JsonSchema {
  return { $ref: `${SCHEMA_REF}${name}` };
}

function json(schema: JsonSchema): object {
  return { 'application/json': { schema } };
}

function describeCode(code: string): string {
  return ERROR_CODES[code as keyof typeof ERROR_CODES].says;
}

function describeControlCode(code: string): string {
  return code === 'unauthorized'
    ? 'The admin token is missing or wrong (a sandbox started with one), or the key naming the account is.'
    : describeCode(code);
}

function describePage(schema: JsonSchema): void {
  schema.description =
    'A page of a list. Ask for the next page with `cursor` set to `next_cursor`; null, empty or missing means this is the last page.';
  const { items, next_cursor } = schema.properties ?? {};
  if (items) items.description = "This page's items, oldest first.";
  if (next_cursor)
    next_cursor.description =
      'Opaque: pass it as `cursor` to get the next page. Stays valid while new items arrive (none skipped or repeated).';
}

function pathParameters(route: string): object[] {
  return [...route.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const param = PATH_PARAMS[name as string];
    if (!param) throw new Error(`The path parameter ${name} has no schema in src/openapi/document.ts`);
    const schema = toSchema(param.schema, 'input');
    const { description: refinements, ...rest } = schema;
    return {
      name,
      in: 'path',
      required: true,
      description: [param.description, refinements].filter(Boolean).join(' '),
      schema: rest,
    };
  });
}

/** The paging parameters in HTTP terms (their TSDoc speaks of the SDK's page walk). */
const PAGE_PARAMS: Record<string, string> = {
  limit: 'Items per page, 1..200; default 50.',
  cursor: "Where to go on from: the previous page's `next_cursor`.",
};

/**
 * The query's fields as parameters. A field that takes one value or a list of them is sent
 * comma-separated (`status=confirmed,completed`): in OpenAPI, an array with `style: form, explode: false`.
 */
function queryParameters(query: z.ZodMiniType, type: string, docs: FieldDocs): object[] {
  const schema = toSchema(query, 'input');
  docs.annotate(schema, type);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const { description: sdkWords, ...rest } = field;
    const description = PAGE_PARAMS[name] ?? sdkWords;
    const list = rest.anyOf?.find((branch) => branch.type === 'array');
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description: list ? `${description} Several: comma-separated.` : description } : {}),
      ...(list ? { style: 'form', explode: false, schema: list } : { schema: rest }),
    };
  });
}
