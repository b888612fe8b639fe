import { beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import document from '../../src/testing/http/openapi.json' with { type: 'json' };
import { ResponseChecker, type Recorded } from './support/response-checker.js';
import { scriptedRun } from './support/scripted-run.js';

type Json = Record<string, unknown>;
const doc = document as unknown as Json;

describe("the sandbox's answers to a run of typical calls, checked against the OpenAPI document", () => {
  let answers: Recorded[];
  const checker = new ResponseChecker(doc);

  beforeAll(async () => {
    const sandbox = createSandbox({ seed: 11 });
    const withToken = createSandbox({ seed: 12, features: { dashboardToken: true } });
    const [server, tokenServer] = await Promise.all([sandbox.listen(0), withToken.listen(0)]);
    try {
      answers = await scriptedRun(server.url, tokenServer.url);
    } finally {
      await Promise.all([server.close(), tokenServer.close()]);
    }
  }, 60_000);

  it('every answer matches the schema of its path and status, with no field the document lacks', () => {
    const problems = answers.flatMap((answer) => checker.problems(answer));
    expect(problems).toEqual([]);
  });

  it('the run reaches every operation of the document, and every error code each service operation lists', () => {
    const reached = new Set(answers.map((a) => `${a.method.toLowerCase()} ${a.template} ${a.status}`));
    const missed: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses: Json }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        if (!statuses.some((status) => reached.has(`${method} ${path} ${status}`))) missed.push(`${method} ${path}`);
      }
    }
    expect(missed).toEqual([]);
    // Every status of the service's error answers appears at least once somewhere in the run.
    const statuses = new Set(answers.map((a) => a.status));
    for (const status of [200, 201, 400, 401, 403, 404, 409, 413, 422, 429, 500, 503])
      expect(statuses, `status ${status}`).toContain(status);
  });

  it('each error code the sandbox sent is one the document lists for that operation and status', () => {
    const codes = new Set(
      answers.filter((a) => a.status >= 400).map((a) => (a.body as { error: { code: string } }).error.code),
    );
    expect([...codes].sort()).toEqual([
      'conflict',
      'feature_not_enabled',
      'forbidden_ip',
      'internal_error',
      'invalid_state',
      'not_found',
      'payload_too_large',
      'prohibited_rule',
      'rate_limited',
      'unauthorized',
      'unavailable',
      'validation_error',
    ]);
  });

  it('fails an answer with a field the document lacks, one missing a required field, and an unlisted status', () => {
    const location = answers.find(
      (a) => a.method === 'GET' && a.template === '/partner/v1/locations/{partner_location_id}' && a.status === 200,
    ) as Recorded;
    const body = location.body as Json;
    expect(checker.problems(location)).toEqual([]);
    expect(checker.problems({ ...location, body: { ...body, loyalty_tier: 'gold' } }).join('\n')).toMatch(
      /must NOT have additional properties/,
    );
    expect(
      checker
        .problems({ ...location, body: { ...body, address: { ...(body.address as Json), county: 'King' } } })
        .join('\n'),
    ).toMatch(/address.*must NOT have additional properties/);
    const { created_at: _, ...withoutCreated } = body;
    expect(checker.problems({ ...location, body: withoutCreated }).join('\n')).toMatch(
      /must have required property 'created_at'/,
    );
    expect(checker.problems({ ...location, status: 418 }).join('\n')).toMatch(/does not list this status/);
    const notFound = answers.find((a) => a.status === 404) as Recorded;
    expect(checker.problems({ ...notFound, body: { error: { code: 'conflict', message: 'x' } } }).join('\n')).toMatch(
      /must be equal to constant/,
    );
    expect(checker.problems({ ...location, headers: new Headers() }).join('\n')).toMatch(/header X-Request-Id missing/);
  });
});
