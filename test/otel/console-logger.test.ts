/** Logging without code: `PARTNER_SDK_LOG` / `logLevel`, through real clients and a sandbox. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleLogging, formatLine } from '../../src/core/console-logger.js';
import { ConfigurationError, PartnerClient, type Telemetry } from '../../src/index.js';
import { startSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

const SUMMARY = '/partner/v1/summary';
const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z partner-sdk (debug|info |warn ) \S/;
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
  it('debug: request, response with the request id and the budget left, done; never the key', async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    const client = env.client();
    const { response } = await client.reports.summary().withResponse();
    for (const line of lines) expect(line).toMatch(LINE);
    const text = lines.map((l) => l.slice(25)).join('\n');
    expect(text).toContain('partner-sdk debug request reports.summary GET /partner/v1/summary attempt=1');
    expect(text).toMatch(
      new RegExp(
        `partner-sdk debug response reports.summary attempt=1 status=200 ms=\\d+ requestId=${response.requestId} budget=${response.rateLimit?.remaining}/${response.rateLimit?.limit}`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `partner-sdk debug done reports.summary status=200 attempts=1 ms=\\d+ requestId=${response.requestId}`,
      ),
    );
    expect(lines).toHaveLength(3);
    expect(text).not.toContain(env.key);
  });

  it('info: a retry with its reason and wait, a long Retry-After wait, a failed call; no per-request lines', async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'INFO ');
    const client = env.client();
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    await client.reports.summary();
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '2' }, times: 1, path: SUMMARY });
    await client.reports.summary();
    const error = (await client.locations.get('no-such-store').catch((e: unknown) => e)) as { requestId: string };
    const text = lines.map((l) => l.slice(25)).join('\n');
    expect(text).toMatch(/^partner-sdk info {2}retrying reports\.summary attempt=1 reason=unavailable waitMs=\d+$/m);
    expect(text).toMatch(/^partner-sdk info {2}retrying reports\.summary attempt=1 reason=rate_limited waitMs=2000$/m);
    expect(text).toMatch(/^partner-sdk info {2}waited reports\.summary reason=retry_after ms=(19\d\d|20\d\d)$/m);
    expect(text).toContain(`partner-sdk info  failed locations.get code=not_found status=404 attempts=1`);
    expect(text).toContain(`requestId=${error.requestId}`);
    expect(text).not.toMatch(/ (debug|request|response|done) /);
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
    expect(lines.some((l) => l.includes(' debug request reports.summary GET /partner/v1/summary'))).toBe(true);
  });

  it("a partner's own logger wins over both", async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    const seen: string[] = [];
    await env.client({ logLevel: 'debug', logger: { debug: (message) => seen.push(message) } }).reports.summary();
    expect(lines).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it("a partner's telemetry and the console logger both see every call", async () => {
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'debug');
    const events: string[] = [];
    const telemetry: Telemetry = {
      startCall: (call) => {
        events.push(`start ${call.operation}`);
        return {
          attemptStart: ({ headers }) => void (headers['x-mine'] = '1'),
          end: ({ attempts }) => void events.push(`end ${attempts}`),
        };
      },
    };
    await env.client({ telemetry }).reports.summary();
    expect(events).toEqual(['start reports.summary', 'end 1']);
    expect(lines.filter((l) => / (request|response|done) reports\.summary/.test(l))).toHaveLength(3);
  });

  it('an unknown PARTNER_SDK_LOG warns once per process and the client works without logging', async () => {
    captureStderr();
    // A value no other test uses: the warning is once per value per process.
    vi.stubEnv('PARTNER_SDK_LOG', 'verbose-once');
    const first = env.client();
    const second = env.client();
    await first.reports.summary();
    await second.reports.summary();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(LINE);
    expect(lines[0]?.slice(25)).toBe(
      'partner-sdk warn  PARTNER_SDK_LOG is "verbose-once", not one of debug, info, warn, off; the SDK goes on without logging. Set one of those levels to see its events.',
    );
  });

  it('a wrong logLevel option is still refused at construction', () => {
    const create = (options = {}) => new PartnerClient({ apiKey: env.key, baseUrl: env.baseUrl, ...options });
    expect(() => create({ logLevel: 'trace' })).toThrow(ConfigurationError);
    expect(() => create({ logLevel: 'trace' })).toThrow(
      'The option logLevel must be one of debug, info, warn, off; got "trace".',
    );
    // The option wins over the variable, so a stray variable neither warns nor matters here.
    captureStderr();
    vi.stubEnv('PARTNER_SDK_LOG', 'verbose-option');
    expect(() => create({ logLevel: 'trace' })).toThrow(ConfigurationError);
    expect(() => create({ logger: {} })).not.toThrow();
    expect(lines).toEqual([]);
  });
});

describe('the console logger on its own', () => {
  const at = new Date('2026-11-23T11:45:01.234Z');

  it("prints the logger's events that are not about one call (a shared budget's Redis), and every warning", () => {
    const out: string[] = [];
    const { logger } = consoleLogging('debug', undefined, (line) => out.push(line.slice(25))) ?? {};
    logger?.debug?.('partner-sdk: request', { method: 'GET', path: '/partner/v1/summary', attempt: 1 });
    logger?.info?.('partner-sdk: retrying', { method: 'GET', path: '/partner/v1/summary', attempt: 1 });
    logger?.info?.('partner-sdk: shared rate budget: Redis is back, sharing the budget again', { budget: 'k1' });
    logger?.warn?.('partner-sdk: shared rate budget: Redis is unreachable', {
      budget: 'k1',
      method: 'GET',
      path: '/x',
    });
    expect(out).toEqual([
      'partner-sdk info  shared rate budget: Redis is back, sharing the budget again budget=k1',
      'partner-sdk warn  shared rate budget: Redis is unreachable GET /x budget=k1',
    ]);
  });

  it('waits under a second are debug, longer ones info; a level prints its own events and the ones above', () => {
    const out: string[] = [];
    const info = consoleLogging(undefined, 'info', (line) => out.push(line.slice(25)));
    const observer = info?.telemetry.startCall({
      operation: 'locations.get',
      method: 'GET',
      urlTemplate: '/partner/v1/locations/{partner_location_id}',
      serverAddress: 'x',
      serverPort: 443,
    });
    observer?.waited?.({ reason: 'rate_budget', ms: 250 });
    observer?.waited?.({ reason: 'shared_pause', ms: 1_500.4 });
    observer?.attemptStart?.({ attempt: 1, headers: {} });
    observer?.attemptEnd?.({ attempt: 1, durationMs: 3, error: { code: 'timeout' } as never });
    expect(out).toEqual(['partner-sdk info  waited locations.get reason=shared_pause ms=1500']);
    expect(consoleLogging('off', 'debug')).toBeUndefined();
    expect(consoleLogging(undefined, undefined)).toBeUndefined();
  });

  it('never throws into the SDK: a write that fails, a field that cannot be serialised', () => {
    const failing = consoleLogging('debug', undefined, () => {
      throw new Error('EPIPE');
    });
    expect(() => failing?.logger.warn?.('partner-sdk: x', {})).not.toThrow();
    const out: string[] = [];
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const working = consoleLogging('debug', undefined, (line) => out.push(line));
    expect(() => working?.logger.warn?.('partner-sdk: x', { circular })).not.toThrow();
    working?.logger.warn?.('partner-sdk: y', { ok: 1 });
    expect(out.map((l) => l.slice(25))).toEqual(['partner-sdk warn  y ok=1']);
  });

  it('formats method and path together, other fields as name=value, quoting only what needs it', () => {
    expect(
      formatLine(at, 'info', 'partner-sdk: retrying', {
        method: 'GET',
        path: '/partner/v1/summary',
        attempt: 1,
        waitMs: 200,
        reason: 'internal_error',
      }),
    ).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk info  retrying GET /partner/v1/summary attempt=1 waitMs=200 reason=internal_error',
    );
    expect(
      formatLine(at, 'warn', 'rate limiter: internal error', {
        limiter: 'k1',
        error: 'Connection is closed.',
        detail: { a: 1 },
        gone: undefined,
      }),
    ).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk warn  rate limiter: internal error limiter=k1 error="Connection is closed." detail={"a":1}',
    );
    expect(formatLine(at, 'debug', 'x', { path: '/only/path', cause: new TypeError('fetch failed') })).toBe(
      '2026-11-23T11:45:01.234Z partner-sdk debug x path=/only/path cause="TypeError: fetch failed"',
    );
  });
});
