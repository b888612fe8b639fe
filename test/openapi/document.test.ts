import { validate } from '@readme/openapi-parser';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/openapi/document.js';
import { SANDBOX_DOCUMENT_PATH, serialize } from '../../src/openapi/serialize.js';
import { createSandbox } from '../../src/testing/index.js';

/** Every endpoint of the service's specification (section 4), method and path. */
const SPEC_ENDPOINTS = [
  'POST /locations',
  'GET /locations/{partner_location_id}',
  'PATCH /locations/{partner_location_id}',
  'POST /locations/{partner_location_id}/pause',
  'POST /locations/{partner_location_id}/resume',
  'POST /locations/{partner_location_id}/terminate',
  'GET /locations/{partner_location_id}/reservations',
  'GET /reservations',
  'POST /reservations/{reservation_id}/acknowledge',
  'GET /locations/{partner_location_id}/content',
  'GET /summary',
  'GET /billing/monthly',
  'GET /locations/{partner_location_id}/creators',
  'GET /locations/{partner_location_id}/creator-samples',
  'POST /locations/{partner_location_id}/creator-samples/{batch_id}/decision',
  'GET /pricing/quote',
  'GET /settings',
  'PUT /settings',
  'POST /locations/{partner_location_id}/dashboard-token',
];

const committed = readFileSync(SANDBOX_DOCUMENT_PATH, 'utf8');
const document = JSON.parse(committed) as {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; tags: string[] }>>;
  components: { schemas: Record<string, unknown> };
};

describe('the OpenAPI document', () => {
  it('is what the generator makes from src/schemas and src/resources now (run `npm run build` and commit src/testing/http/openapi.json when this fails)', async () => {
    expect(serialize(await buildDocument()) === committed).toBe(true);
  }, 60_000);

  it('passes a real OpenAPI 3.1 validator, which refuses a broken copy', async () => {
    expect(await validate(structuredClone(document) as never)).toMatchObject({ valid: true, warnings: [] });
    const broken = structuredClone(document);
    (broken.paths['/partner/v1/summary'] as Record<string, unknown>).get = {
      responses: { '200': { $ref: '#/components/responses/nothing' } },
    };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('lists every endpoint of the service under /partner/v1, and nothing else there', () => {
    const listed = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/partner/v1/'))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.slice('/partner/v1'.length)}`),
      );
    expect(listed.sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  it('states paging, the comma-separated status filter, path ids and a refinement JSON Schema cannot express', () => {
    const list = document.paths['/partner/v1/reservations']?.get;
    expect(list?.parameters?.map((p) => p.name)).toEqual([
      'limit',
      'cursor',
      'status',
      'acknowledged',
      'from',
      'to',
      'partner_location_id',
    ]);
    expect(list?.parameters?.find((p) => p.name === 'status')).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array' },
    });
    expect(list?.parameters?.find((p) => p.name === 'from')).toMatchObject({
      description: expect.stringContaining('2026-02-30 is refused'),
    });
    expect(document.paths['/partner/v1/locations/{partner_location_id}']?.get?.parameters?.[0]).toMatchObject({
      name: 'partner_location_id',
      in: 'path',
      description: expect.stringContaining('must not be "." or ".."'),
    });
    expect(document.components.schemas.ReservationPage).toMatchObject({
      required: ['items'],
      properties: { next_cursor: { type: ['string', 'null'] } },
    });
    expect(document.components.schemas.Location).toMatchObject({
      properties: {
        status: { description: '`active`, `paused` or `terminated`.', examples: ['active', 'paused', 'terminated'] },
      },
    });
  });

  it('puts the control API under its own tag', () => {
    const tagged = Object.entries(document.paths).filter(([, ops]) =>
      Object.values(ops).some((op) => op.tags.includes('Sandbox control')),
    );
    expect(tagged.map(([path]) => path).every((path) => path.startsWith('/_sandbox') || path === '/openapi.json')).toBe(
      true,
    );
    expect(tagged.length).toBe(Object.keys(document.paths).filter((p) => !p.startsWith('/partner/v1/')).length);
  });

  it('is served by the sandbox at GET /openapi.json without a key; other methods get 405', async () => {
    const sandbox = createSandbox();
    const got = await sandbox.handle(new Request('http://sandbox.test/openapi.json'));
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({
      ...document,
      servers: [{ url: 'http://sandbox.test', description: expect.any(String) }],
    });
    const posted = await sandbox.handle(new Request('http://sandbox.test/openapi.json', { method: 'POST' }));
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(sandbox.requests).toHaveLength(0);
  });

  it("the sandbox's 404 points to /openapi.json and docs/http.md", async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    const got = await sandbox.handle(
      new Request('http://sandbox.test/partner/v1/stores', { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(((await got.json()) as { error: { message: string } }).error.message).toBe(
      'There is no endpoint at /partner/v1/stores. Paths start with /partner/v1; GET /openapi.json lists every endpoint (docs/http.md in @crp/partner-sdk walks through them).',
    );
  });
});
