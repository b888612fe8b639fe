/**
 * Every ```ts block of the README and docs/*.md runs against a sandbox on a real port, as a reader
 * would paste it: a stale snippet (a method renamed, a store that does not exist, an option the
 * client refuses) fails the suite. A block that cannot run says why in a marker on the line before
 * its fence, `<!-- docs-test: skip REASON -->`, and is listed here.
 *
 * Each block runs in its own process (tsx), from a scratch directory, with PARTNER_API_KEY (a fresh
 * key whose account holds the quickstart's store, sf-mission-01) and PARTNER_API_BASE_URL set. The
 * names a block uses from the text around it (`client`, `body`, `sandbox`, …) get a prelude; the
 * package's own names (`PartnerClient`, `createSandbox`, …) come from src/ when not imported.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import { PartnerClient } from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { declaredNames, snippetsOf, type Snippet } from './snippets.js';

const root = resolve(import.meta.dirname, '../..');
const TSX = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const ENTRIES: Record<string, string> = {
  '@crp/partner-sdk': 'src/index.ts',
  '@crp/partner-sdk/testing': 'src/testing/index.ts',
  '@crp/partner-sdk/redis': 'src/redis/index.ts',
  '@crp/partner-sdk/otel': 'src/otel/index.ts',
  '@crp/partner-sdk/events': 'src/events/index.ts',
  '@crp/partner-sdk/bulk': 'src/bulk/index.ts',
  '@crp/partner-sdk/postgres': 'src/postgres/index.ts',
};
const entry = (name: string) => {
  const path = ENTRIES[name];
  if (path === undefined)
    throw new Error(`A snippet imports ${name}, an entry this test does not know: add it to ENTRIES.`);
  return pathToFileURL(join(root, path)).href;
};

/** The quickstart's store: every block finds it enrolled (enrolling it again is idempotent). */
const STORE = {
  partner_location_id: 'sf-mission-01',
  name: 'Mission Noodle Bar',
  address: { line1: '2100 Mission St', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' },
};

/** What the text around a block has already set up, by name. */
const CONTEXT: Record<string, string> = {
  client: 'const client = new __sdk.PartnerClient();',
  body: `const body = ${JSON.stringify(STORE)};`,
  rows: `const rows = [${JSON.stringify(STORE)}, { ...${JSON.stringify(STORE)}, partner_location_id: 'sf-castro-02' }];`,
  signal: 'const signal = AbortSignal.timeout(1_500);',
  logger: 'const logger = { error: (record: unknown) => console.error(record) };',
  sandbox: 'const sandbox = __testing.createSandbox({ seed: 42 });',
  apiKey: 'const apiKey = sandbox.issueKey();',
  key: 'const key = sandbox.issueKey();',
  otherKey: 'const otherKey = sandbox.issueKey();',
  control: 'const control = new __testing.SandboxControl({ baseUrl: process.env.PARTNER_API_BASE_URL! });',
  baseUrl: 'const baseUrl = process.env.PARTNER_API_BASE_URL!;',
};
/** A context name another one needs. */
const NEEDS: Record<string, string[]> = { apiKey: ['sandbox'], key: ['sandbox'], otherKey: ['sandbox'] };

/** Whether the block reads `name` as a variable (a spread `...name` counts; a property `.name` does not). */
const uses = (code: string, name: string) =>
  new RegExp(`(?<![\\w$.'"])${name.replace('$', '\\$')}(?![\\w$'"])`).test(code.replaceAll('...', ' '));

/** The block as a module: its imports pointed at src/, the prelude it needs, and an end to what it left running. */
function moduleOf(code: string): string {
  const declared = declaredNames(code);
  const wanted = new Set<string>();
  const want = (name: string) => {
    if (declared.has(name) || wanted.has(name)) return;
    for (const need of NEEDS[name] ?? []) want(need);
    wanted.add(name);
  };
  for (const name of Object.keys(CONTEXT)) if (uses(code, name)) want(name);
  const exported = (from: Record<string, unknown>, alias: string) =>
    Object.keys(from)
      .filter((name) => !declared.has(name) && uses(code, name))
      .map((name) => `const { ${name} } = ${alias};`);
  const lines = code
    .replace(/from '(@crp\/partner-sdk(?:\/\w+)?)'/g, (_, name: string) => `from '${entry(name)}'`)
    .split('\n');
  // A context name that needs one the block declares itself goes right after that declaration.
  const before: string[] = [];
  for (const name of wanted) {
    const own = (NEEDS[name] ?? []).find((need) => declared.has(need));
    const at =
      own === undefined ? -1 : lines.findIndex((line) => new RegExp(`\\b(?:const|let)\\s+${own}\\b`).test(line));
    if (at === -1) before.push(CONTEXT[name] as string);
    else lines.splice(at + 1, 0, CONTEXT[name] as string);
  }
  return [
    `import * as __sdk from '${entry('@crp/partner-sdk')}';`,
    `import * as __testing from '${entry('@crp/partner-sdk/testing')}';`,
    ...exported(sdk, '__sdk'),
    ...exported(testing, '__testing').filter((line) => !exported(sdk, '__sdk').includes(line)),
    ...before,
    ...lines,
    // The block is done: a server or timer it left open must not keep the process alive.
    'setTimeout(() => process.exit(), 50).unref();',
    'export {};',
  ].join('\n');
}

function run(file: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', TSX, file], {
      cwd,
      env: { ...process.env, ...env, NODE_OPTIONS: '', PARTNER_SDK_LOG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

const snippets = snippetsOf(root);
const runnable = snippets.filter((s) => s.skip === undefined);

describe('README and docs snippets', () => {
  const sandbox = createSandbox({ seed: 42 });
  let server: { url: string; close(): Promise<void> };
  let dir: string;
  beforeAll(async () => {
    server = await sandbox.listen(0);
    // Inside the repository, so that a block's own imports (msw, @opentelemetry/api) resolve.
    dir = mkdtempSync(join(root, 'test/docs/.run-'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the blocks, the quickstart and the namespace example among them; skips only these, each saying why', () => {
    expect(runnable.length).toBeGreaterThan(20);
    const readme = runnable.filter((s) => s.where.startsWith('README.md:'));
    expect(readme.some((s) => s.code.includes("import { PartnerClient, NotFoundError } from '@crp/partner-sdk'"))).toBe(
      true,
    );
    expect(readme.some((s) => s.code.includes('client.creators.getSamples('))).toBe(true);
    // A new skip is a decision: add it here with its reason.
    expect(snippets.filter((s) => s.skip !== undefined).map((s) => `${s.where.split(':')[0]}: ${s.skip}`)).toEqual([
      'README.md: needs a Redis server; examples/shared-key-redis.ts runs the same in test/examples',
      'docs/events.md: runs until SIGTERM with handlers of yours; examples/watch-bookings.ts is the runnable version, run in test/examples',
      'docs/events.md: needs a Redis server; test/redis-events/ runs replicas on a redisCheckpoint',
      'docs/sync.md: needs a PostgreSQL server; test/postgres/ runs the same against one it starts',
    ]);
  });

  it.each(runnable.map((s): [string, Snippet] => [s.where, s]))(
    '%s runs',
    { timeout: 60_000 },
    async (where, snippet) => {
      const apiKey = sandbox.issueKey();
      const client = new PartnerClient({ apiKey, baseUrl: server.url });
      await client.locations.enroll(STORE);
      await client.close();
      const file = join(dir, `${where.replace(/[^\w]+/g, '-')}.ts`);
      writeFileSync(file, moduleOf(snippet.code));
      const { code, out } = await run(file, dir, { PARTNER_API_KEY: apiKey, PARTNER_API_BASE_URL: server.url });
      expect({ where, code, out: code === 0 ? '' : out }).toEqual({ where, code: 0, out: '' });
    },
  );
});
