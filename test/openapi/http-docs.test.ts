import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import document from '../../src/testing/http/openapi.json' with { type: 'json' };

const run = promisify(execFile);
const page = readFileSync('docs/http.md', 'utf8');

/** The fenced blocks of docs/http.md in `language`, in order. */
function blocks(language: string): string[] {
  return [...page.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] as string);
}

const hasPython = await run('python3', ['--version']).then(
  () => true,
  () => false,
);

describe('docs/http.md', () => {
  it("lists every operation of the OpenAPI document under /partner/v1, with the document's retry safety", () => {
    const rows = [
      ...page.matchAll(/^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \|.*\| (yes|\*\*no\*\*[^|]*) \|$/gm),
    ].map((m) => `${m[1]} ${m[2]} ${m[3]!.startsWith('yes')}`);
    const operations = Object.entries(document.paths as Record<string, Record<string, { 'x-retry-safe'?: boolean }>>)
      .filter(([path]) => path.startsWith('/partner/v1/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => `${method.toUpperCase()} ${path} ${op['x-retry-safe']}`),
      );
    expect(rows.sort()).toEqual(operations.sort());
  });

  describe.skipIf(!hasPython)('its examples, run against a sandbox on a real port', () => {
    let sandbox: Sandbox;
    let server: Awaited<ReturnType<Sandbox['listen']>>;
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      sandbox = createSandbox({ seed: 3 });
      server = await sandbox.listen(0);
      env = { ...process.env, PARTNER_API_BASE_URL: server.url, PARTNER_API_KEY: sandbox.issueKey() };
    });
    afterAll(() => server.close());

    const python = (code: string, extra: NodeJS.ProcessEnv = {}) =>
      run('python3', ['-c', code], { env: { ...env, ...extra }, timeout: 30_000 }).then((r) => r.stdout);

    it('curl: enrolls, moves the clock, pages, retries and shows an error', async () => {
      const [curl] = blocks('sh').filter((b) => b.includes('curl -s -X POST "$API/locations"'));
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', curl as string], { env, timeout: 30_000 });
      expect(stdout).toContain('"partner_location_id":"sf-mission-01"');
      expect(stdout).toMatch(/HTTP\/1\.1 200 OK[\s\S]*ratelimit-remaining: \d+/i);
      expect(stdout).toContain('"next_cursor"');
      expect(stdout).toContain('"code":"validation_error","message"');
      expect(stdout).toContain('"field":"colour"');
      expect(sandbox.requestCount({ method: 'GET', path: '/partner/v1/reservations', status: 200 })).toBe(3);
    });

    it('Python: enrolls (201, then 200, then 409)', async () => {
      const [enroll] = blocks('python');
      expect(await python(enroll as string)).toBe('201 active found\n200\n409 conflict\n');
    });

    it('Python: pages through every booking', async () => {
      const key = sandbox.issueKey();
      sandbox.populate(key, { locations: 3, reservationsPerLocation: 150 });
      const expected = sandbox.inspect
        .stores(key)
        .flatMap((s) => sandbox.inspect.reservations(key, s.partner_location_id))
        .filter((r) => ['confirmed', 'completed'].includes(r.status) && r.acknowledged_kind === null).length;
      expect(expected).toBeGreaterThan(200);
      expect(await python(blocks('python')[1] as string, { PARTNER_API_KEY: key })).toBe(`${expected} bookings\n`);
    });

    it('Python: retries a 429 after Retry-After', async () => {
      const key = sandbox.issueKey({ rateLimit: { limit: 2, windowMs: 1_000 } });
      const out = await python(blocks('python')[2] as string, { PARTNER_API_KEY: key });
      expect(out).toMatch(
        /^remaining in this window: 1\nremaining in this window: 0\n429 rate_limited: waiting 1 s\nremaining in this window: 1\n0 stores\n$/,
      );
    });

    it("Python: moves the sandbox's clock", async () => {
      const before = sandbox.clock.now().getTime();
      const out = (await python(blocks('python')[3] as string)).trim().split('\n');
      expect(out[0]).toBe(new Date(before).toISOString());
      expect(out[1]).toBe(new Date(before + 3 * 86_400_000).toISOString());
      expect(out[2]).toBe('2027-01-01T00:00:00.000Z');
    });
  });
});
