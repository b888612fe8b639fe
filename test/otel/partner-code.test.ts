/**
 * A partner's telemetry and logger run inside every call. Whatever they throw or reject with must
 * not change the call (its result or error, its attempts, its waits); each hook that throws is
 * reported once through the logger's warn, without the key. Real clients against the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NotFoundError, type CallObserver, type ClientOptions, type Logger, type Telemetry } from '../../src/index.js';
import { startSdkEnv, TRANSPORTS, type SdkEnv } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';

const SUMMARY = '/partner/v1/summary';
const HOOKS = ['startCall', 'attemptStart', 'attemptEnd', 'waited', 'retrying', 'end'] as const;
type Hook = (typeof HOOKS)[number];

/** A telemetry whose `hook` throws an error quoting the key; every other hook records what it saw. */
function throwingTelemetry(
  hook: Hook,
  key: string,
  how: 'throw' | 'reject' = 'throw',
): { telemetry: Telemetry; seen: string[] } {
  const seen: string[] = [];
  const fail = () => {
    const error = new Error(`observer broke while holding ${key}`);
    if (how === 'reject') return Promise.reject(error);
    throw error;
  };
  const observer: CallObserver = {};
  for (const name of HOOKS.slice(1) as Exclude<Hook, 'startCall'>[]) {
    observer[name] = (() => (name === hook ? fail() : void seen.push(name))) as never;
  }
  return { telemetry: { startCall: () => (hook === 'startCall' ? (fail() as never) : observer) }, seen };
}

function recordingLogger(): Logger & { warnings: { message: string; fields?: Record<string, unknown> }[] } {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  return {
    warnings,
    warn: (message, fields) => void warnings.push(fields === undefined ? { message } : { message, fields }),
  };
}

describe.each(TRANSPORTS)('a throwing telemetry or logger never changes a call (%s)', (kind) => {
  let env: SdkEnv;
  beforeAll(async () => {
    env = await startSdkEnv(kind);
  });
  afterAll(() => env.close());

  /** A call retried once after a 503 (backoff), as seen by the client and the server. */
  async function retriedCall(options: ClientOptions) {
    const clock = { ...fakeClock(), random: () => 0.5 };
    const client = env.client({ clock, ...options });
    const before = env.sandbox.requestCount({ path: SUMMARY });
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    const { data, response } = await client.reports.summary().withResponse();
    return {
      data,
      status: response.status,
      sleeps: clock.sleeps,
      sent: env.sandbox.requestCount({ path: SUMMARY }) - before,
    };
  }

  it.each(HOOKS)(
    'telemetry.%s throws: same result, attempts and waits; one warning naming the hook, without the key',
    async (hook) => {
      const plain = await retriedCall({});
      const logger = recordingLogger();
      const { telemetry, seen } = throwingTelemetry(hook, env.key);
      const broken = await retriedCall({ telemetry, logger });
      expect(broken).toEqual(plain);
      expect(broken.sent).toBe(2);
      expect(broken.sleeps).toEqual([250]);
      expect(logger.warnings).toHaveLength(1);
      expect(logger.warnings[0]?.message).toContain(`telemetry.${hook} failed`);
      expect(logger.warnings[0]?.fields?.hook).toBe(`telemetry.${hook}`);
      expect(logger.warnings[0]?.fields?.error).toMatch(/^Error: observer broke while holding \[redacted\]$/);
      expect(JSON.stringify(logger.warnings)).not.toContain(env.key);
      // The other hooks still saw the call.
      if (hook !== 'startCall') expect(new Set(seen)).toEqual(new Set(HOOKS.slice(1).filter((h) => h !== hook)));
      // A startCall that throws leaves the call without an observer.
      else expect(seen).toEqual([]);
    },
  );

  it('a failed call fails the same way: same error class, attempts and request id', async () => {
    const logger = recordingLogger();
    const { telemetry } = throwingTelemetry('end', env.key);
    const client = env.client({ telemetry, logger });
    const error = await client.locations.get('no-such-store').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).attempts).toBe(1);
    expect((error as NotFoundError).requestId).toBe(env.sandbox.requests.at(-1)?.requestId);
    expect(logger.warnings.map((w) => w.fields?.hook)).toEqual(['telemetry.end']);
  });

  it('an async hook that rejects: no unhandled rejection, one warning', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const logger = recordingLogger();
      const { telemetry } = throwingTelemetry('attemptEnd', env.key, 'reject');
      const broken = await retriedCall({ telemetry, logger });
      expect(broken.sent).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(logger.warnings.map((w) => w.fields?.hook)).toEqual(['telemetry.attemptEnd']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reported once per client and hook, however many calls it breaks', async () => {
    const logger = recordingLogger();
    const { telemetry } = throwingTelemetry('attemptStart', env.key);
    const client = env.client({ telemetry, logger });
    for (let i = 0; i < 3; i++) await client.reports.summary();
    expect(logger.warnings).toHaveLength(1);
    // Another client reports its own.
    const other = recordingLogger();
    await env.client({ telemetry, logger: other }).reports.summary();
    expect(other.warnings).toHaveLength(1);
  });

  it('a logger whose debug and info throw: same result, attempts and waits; reported through warn', async () => {
    const plain = await retriedCall({});
    const warnings: unknown[][] = [];
    const logger: Logger = {
      debug: () => {
        throw new Error(`debug failed for ${env.key}`);
      },
      info: () => {
        throw new TypeError('info failed');
      },
      warn: (...args) => void warnings.push(args),
    };
    const broken = await retriedCall({ logger });
    expect(broken).toEqual(plain);
    expect(warnings.map(([, fields]) => (fields as { hook: string }).hook)).toEqual(['logger.debug', 'logger.info']);
    expect(warnings[1]?.[1]).toMatchObject({ error: 'TypeError: info failed' });
    expect(JSON.stringify(warnings)).not.toContain(env.key);
  });

  it('a logger whose every method throws, telemetry too: the call goes on, nothing escapes', async () => {
    const plain = await retriedCall({});
    const warn = vi.fn((_message: string, _fields?: Record<string, unknown>) => {
      throw new Error('warn failed');
    });
    const logger: Logger = { debug: warn, info: warn, warn };
    const { telemetry } = throwingTelemetry('retrying', env.key);
    const broken = await retriedCall({ logger, telemetry });
    expect(broken).toEqual(plain);
    // Each reported once through warn, which throws too and is then given up on.
    const reports = warn.mock.calls.filter(([message]) => message.includes(' failed;'));
    expect(reports.map(([, fields]) => fields?.hook)).toEqual(['logger.debug', 'telemetry.retrying', 'logger.info']);
  });

  it("headers an observer adds that fetch would refuse, or that would replace the key's, are left out; the call goes on", async () => {
    const logger = recordingLogger();
    const telemetry: Telemetry = {
      startCall: () => ({
        attemptStart: ({ headers }) => {
          headers['x-trace-ok'] = 'yes';
          headers['x-bad-value'] = 'a\r\nx-injected: 1';
          headers['bad name'] = 'x';
          headers['x-not-latin1'] = 'caf\u00e9 \u2603';
          headers.Authorization = 'Bearer crp_test_someone_else';
        },
      }),
    };
    const { response } = await env.client({ telemetry, logger }).reports.summary().withResponse();
    expect(response.status).toBe(200);
    const sent = env.sandbox.requests.at(-1)?.headers ?? {};
    expect(sent['x-trace-ok']).toBe('yes');
    expect(sent).not.toHaveProperty('x-bad-value');
    expect(sent).not.toHaveProperty('x-injected');
    expect(sent).not.toHaveProperty('x-not-latin1');
    expect(logger.warnings.map((w) => w.fields?.hook)).toEqual(['telemetry.attemptStart']);
    expect(logger.warnings[0]?.fields?.error).toMatch(
      /^TypeError: it set a header the SDK does not send \(x-bad-value\)$/,
    );
  });

  it('with the console logger: the warning is printed, and the console still sees every call', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const { telemetry } = throwingTelemetry('attemptStart', env.key);
      await env.client({ telemetry, logLevel: 'debug' }).reports.summary();
      const warnings = lines.filter((l) => / warn /.test(l));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('telemetry.attemptStart failed');
      expect(lines.some((l) => / done reports\.summary status=200/.test(l))).toBe(true);
      expect(lines.join('\n')).not.toContain(env.key);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe.each(TRANSPORTS)('the outcome reported to telemetry (%s)', (kind) => {
  let env: SdkEnv;
  beforeAll(async () => {
    env = await startSdkEnv(kind);
  });
  afterAll(() => env.close());

  it("a failed call's end() carries the error's request id and status", async () => {
    const ends: Parameters<NonNullable<CallObserver['end']>>[0][] = [];
    const client = env.client({ telemetry: { startCall: () => ({ end: (outcome) => void ends.push(outcome) }) } });
    const error = (await client.locations.get('no-such-store').catch((e: unknown) => e)) as NotFoundError;
    expect(error.requestId).toMatch(/\S/);
    expect(ends).toEqual([expect.objectContaining({ attempts: 1, status: 404, requestId: error.requestId, error })]);
  });
});
