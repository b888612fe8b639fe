/** Logging without code: `PARTNER_SDK_LOG` / `logLevel`, through real clients and a sandbox. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatLine, consoleLogger } from '../../src/core/console-logger.js';
import { ConfigurationError, PartnerClient } from '../../src/index.js';
import { startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

const SUMMARY = '/partner/v1/summary';
let env: SdkEnv;
let lines: string[];

beforeAll(async () => {
  env = await startSdkEnv('msw');
});
afterAll(() => env.close());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Captures what the console logger writes (it writes to stderr through console.error). */
function captureStderr(): void {
  lines = [];
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
}

describe('PARTNER_SDK_LOG and logLevel', () => {
  it('debug: one readable line per request and response, with time, level, method and path, never the key', async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    const client = env.client();
    await client.reports.summary();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z partner-sdk (debug|info |warn |error) \S/);
    expect(lines.some((l) => / debug request GET \/partner\/v1\/summary attempt=1/.test(l))).toBe(true);
    expect(lines.some((l) => / debug response GET \/partner\/v1\/summary status=200 requestId=req_\w+/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toContain(env.key);
  });

  it('info: retries with their reason and wait, but no per-request lines', async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'INFO ');
    const client = env.client({ rateLimit: false });
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    await client.reports.summary();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ partner-sdk info {2}retrying GET \/partner\/v1\/summary attempt=1 .*waitMs=\d+ reason=unavailable/);
  });

  it('warn and off print nothing for calls that went well after a retry; unset means off', async () => {
    for (const level of ['warn', 'off', undefined]) {
      captureStderr();
      if (level !== undefined) vi.stubEnv('PARTNER_SDK_LOG', level);
      const client = env.client();
      env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
      await client.reports.summary();
      expect(lines, String(level)).toEqual([]);
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    }
  });

  it('the logLevel option wins over the environment', async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    await env.client({ logLevel: 'off' }).reports.summary();
    expect(lines).toEqual([]);
    vi.stubEnv('PARTNER_SDK_LOG', 'off');
    await env.client({ logLevel: 'debug' }).reports.summary();
    expect(lines.some((l) => l.includes(' debug request GET /partner/v1/summary'))).toBe(true);
  });

  it("a partner's own logger wins over both", async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    const seen: string[] = [];
    await env.client({ logLevel: 'debug', logger: { debug: (message) => seen.push(message) } }).reports.summary();
    expect(lines).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('a wrong level is refused at construction, naming where it came from', () => {
    vi.stubEnv('PARTNER_SDK_LOG', 'verbose');
    const create = (options = {}) => new PartnerClient({ apiKey: env.key, baseUrl: env.baseUrl, ...options });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow('The environment variable PARTNER_SDK_LOG must be one of debug, info, warn, off; got "verbose".');
    vi.stubEnv('PARTNER_SDK_LOG', '');
    expect(() => create({ logLevel: 'trace' })).toThrow('The option logLevel must be one of debug, info, warn, off; got "trace".');
    // A partner's logger makes the level irrelevant, so a stray variable does not stop the client.
    vi.stubEnv('PARTNER_SDK_LOG', 'verbose');
    expect(() => create({ logger: {} })).not.toThrow();
  });
});

describe('the line format', () => {
  const at = new Date('2026-11-23T11:45:01.234Z');

  it('method and path together, other fields as name=value, quoting only what needs it', () => {
    expect(formatLine(at, 'info', 'partner-sdk: retrying', { method: 'GET', path: '/partner/v1/summary', attempt: 1, waitMs: 200, reason: 'internal_error' })).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk info  retrying GET /partner/v1/summary attempt=1 waitMs=200 reason=internal_error',
    );
    expect(formatLine(at, 'warn', 'rate limiter: internal error', { limiter: 'k1', error: 'Connection is closed.', detail: { a: 1 }, gone: undefined })).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk warn  rate limiter: internal error limiter=k1 error="Connection is closed." detail={"a":1}',
    );
    expect(formatLine(at, 'debug', 'x', { path: '/only/path', cause: new TypeError('fetch failed') })).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk debug x path=/only/path cause="TypeError: fetch failed"',
    );
  });

  it('each level prints its own methods and the ones above it', () => {
    const out: string[] = [];
    const info = consoleLogger('info', (line) => out.push(line));
    expect(Object.keys(info).sort()).toEqual(['info', 'warn']);
    info.info?.('hello');
    expect(out).toHaveLength(1);
    expect(Object.keys(consoleLogger('warn', () => undefined)).sort()).toEqual(['warn']);
    expect(Object.keys(consoleLogger('debug', () => undefined)).sort()).toEqual(['debug', 'info', 'warn']);
  });
});
