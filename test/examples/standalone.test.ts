/**
 * Every example also runs on its own, as a partner would start it: `tsx examples/<name>.ts` with
 * PARTNER_API_KEY and PARTNER_API_BASE_URL pointing at a sandbox on a real port.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startExampleEnv, type ExampleEnv } from './sandbox.js';

const root = resolve(import.meta.dirname, '../..');

/** Runs from the repository root (tsx reads tsconfig.json's paths there); outputs go to absolute paths. */
function runExample(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'examples', file), ...args], {
      cwd: root,
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => done({ code, out }));
  });
}

describe('examples run on their own (tsx, environment variables, real HTTP)', () => {
  let env: ExampleEnv;
  let vars: Record<string, string>;
  let cwd: string;
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    env = await startExampleEnv({ seed: 8, visitsPerWeek: 8 });
    vars = { PARTNER_API_KEY: env.apiKey, PARTNER_API_BASE_URL: env.baseUrl };
    cwd = mkdtempSync(join(tmpdir(), 'crp-examples-'));
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await env?.close();
    await redis?.stop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('quickstart.ts', { timeout: 30_000 }, async () => {
    const { code, out } = await runExample('quickstart.ts', [], vars);
    expect(out).toMatch(/NotFoundError \(404 not_found\)/);
    expect(code).toBe(0);
  });

  it('bulk-enroll.ts: enrolls the sample, writes the failed rows, exits 2', { timeout: 30_000 }, async () => {
    const { code, out } = await runExample(
      'bulk-enroll.ts',
      [join(root, 'examples/data/stores.csv'), join(cwd, 'enroll-failures.csv')],
      vars,
    );
    expect(out).toMatch(/12 rows: \d+ enrolled, \d+ already enrolled, 5 failed/);
    expect(code).toBe(2);
    expect(readFileSync(join(cwd, 'enroll-failures.csv'), 'utf8')).toMatch(
      /^line,partner_location_id,code,field,message\n7,pdx-alberta-06,validation_error,address.country,/,
    );
  });

  it('sync-bookings.ts: acknowledges, then resumes from its checkpoint file', { timeout: 30_000 }, async () => {
    env.sandbox.clock.advance({ days: 14 });
    const first = await runExample('sync-bookings.ts', [join(cwd, 'checkpoint.json')], vars);
    expect(first.out).toMatch(/starting from the first booking/);
    expect(first.out).toMatch(/done: \d+ bookings across \d+ stores, [1-9]\d* acknowledged/);
    expect(first.code).toBe(0);
    const second = await runExample('sync-bookings.ts', [join(cwd, 'checkpoint.json')], vars);
    expect(second.out).toMatch(/, 0 acknowledged/);
  });

  it('billing-export.ts: writes billing-YYYY-MM.csv', { timeout: 30_000 }, async () => {
    const month = env.sandbox.clock.now().toISOString().slice(0, 7);
    const { code, out } = await runExample('billing-export.ts', [month, join(cwd, `billing-${month}.csv`)], vars);
    expect(out).toMatch(new RegExp(`billing-${month}.csv: \\d+ stores`));
    expect(code).toBe(0);
    expect(readFileSync(join(cwd, `billing-${month}.csv`), 'utf8')).toMatch(
      /^month,partner_location_id,videos_published,completed_visits,no_shows\n2026-12,/,
    );
  });

  it('billing-export.ts with no arguments: the sandbox’s current month, into the git-ignored examples/output/', {
    timeout: 30_000,
  }, async () => {
    const month = env.sandbox.clock.now().toISOString().slice(0, 7);
    const file = join(root, 'examples', 'output', `billing-${month}.csv`);
    rmSync(file, { force: true });
    try {
      const { code, out } = await runExample('billing-export.ts', [], vars);
      expect(code).toBe(0);
      expect(out).toContain(`${file}: `);
      expect(readFileSync(file, 'utf8')).toMatch(
        new RegExp(`^month,partner_location_id,videos_published,completed_visits,no_shows\n${month},`),
      );
      expect(execFileSync('git', ['check-ignore', file], { cwd: root, encoding: 'utf8' }).trim()).toBe(file);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('error-handling.ts', { timeout: 30_000 }, async () => {
    const { code, out } = await runExample('error-handling.ts', [], vars);
    expect(out).toMatch(/not found\s+-> ignore/);
    expect(out).not.toContain(env.apiKey);
    expect(code).toBe(0);
  });

  it('shared-key-redis.ts: forks 3 workers on one key', { timeout: 60_000 }, async (context) => {
    if (!redis) return context.skip('redis-server is not on PATH (CI sets CRP_REQUIRE_REDIS=1 to make this an error)');
    const { code, out } = await runExample('shared-key-redis.ts', ['3', '5'], { ...vars, REDIS_URL: redis.url });
    expect(out).toMatch(/15 calls from 3 processes on one key, 0 rate-limited/);
    expect(code).toBe(0);
  });
});
