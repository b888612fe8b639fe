import { consoleLogging, type LogLevel } from './console-logger.js';
import { ConfigurationError } from './errors.js';
import type { ClientHooks } from './hooks.js';
import type { Telemetry } from './instrumentation.js';
import type { Logger } from './logger.js';
import { guardPartnerCode } from './guard.js';
import { teeTelemetry } from './tee-telemetry.js';
import { realClock, withMonotonic, type Clock, type ClientClock } from './clock.js';
import { isSharedBudget, kindWithoutValue, type SharedBudget } from './rate-limit/shared.js';

/** Which service a key belongs to: `production` (`crp_live_` keys) or `sandbox` (`crp_test_` keys). */
export type Environment = 'production' | 'sandbox';

export type { Clock, ClientClock } from './clock.js';
export { realClock } from './clock.js';

/** How the client paces its calls to stay within the key's budget (`rateLimit` in {@link ClientOptions}). */
export interface RateLimitOptions {
  /**
   * Share the key's budget with every other process using the same key: `redisBudget(redis)`
   * from `@crp/partner-sdk/redis`. Without it the budget lives in this process.
   */
  shared?: SharedBudget;
  /**
   * Longest a call waits for anything the server imposed: its own Retry-After (on any status), a
   * pause another call or process received, an exhausted window. A longer wait fails at once with
   * a typed error carrying `retryAfterMs` (`RateLimitError`; for a 5xx, its own class).
   * @default 60_000 (milliseconds; at most 2^31 - 1)
   */
  maxRetryAfter?: number;
}

/**
 * Options of `new PartnerClient(options)`. Every option is optional; the key and base URL fall back
 * to the environment. A wrong option fails at construction with a `ConfigurationError`.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({
 *   apiKey: process.env.PARTNER_API_KEY,
 *   baseUrl: 'https://partner.example.com',
 *   timeout: 10_000,
 *   maxRetries: 3,
 *   logger: console,
 * });
 * ```
 */
export interface ClientOptions {
  /** The partner API key (`crp_live_…` or `crp_test_…`). @default process.env.PARTNER_API_KEY */
  apiKey?: string | undefined;
  /** The service's base address, without `/partner/v1`. @default process.env.PARTNER_API_BASE_URL */
  baseUrl?: string | undefined;
  /** Expected environment; refused if it contradicts the key's prefix. */
  environment?: Environment;
  /** Per-attempt time limit covering headers and body, in milliseconds (at most 2^31 - 1). @default 30_000 */
  timeout?: number;
  /** How many times a failed call is repeated when that is safe (0..10). @default 2 */
  maxRetries?: number;
  /**
   * A fetch implementation to use instead of the global one (a proxy agent, a test double). It is
   * called by ky as `fetch(request, init)` with a `Request` object, whose signal is aborted once the
   * attempt is over (the body read).
   */
  fetch?: typeof fetch;
  /** Receives debug, info and warn events; never the key. Takes precedence over `logLevel`. */
  logger?: Logger;
  /**
   * Without a `logger`: print the SDK's events from this level up to stderr as readable lines
   * (requests, retries, waits, the rate budget). @default process.env.PARTNER_SDK_LOG, else 'off'
   */
  logLevel?: LogLevel;
  /**
   * ky's hooks, run on every attempt: `beforeRequest` (add a tracing header, return a Response)
   * and `afterResponse` (time or log an attempt). A hook that throws fails the call with a
   * `HookError` naming it. `options.context` carries `{ operation, attempt }`.
   *
   * @example
   * ```ts
   * new PartnerClient({
   *   hooks: { beforeRequest: [(request) => request.headers.set('x-trace-id', traceId())] },
   * });
   * ```
   */
  hooks?: ClientHooks;
  /**
   * Called at fixed points of every call (start, each attempt, waits, retries, end); what the
   * `@crp/partner-sdk/otel` entry and `PARTNER_SDK_LOG` build on. Nothing it receives carries the key.
   */
  telemetry?: Telemetry;
  /**
   * Largest response body read, in bytes; a larger (or endless) body fails the call with
   * `ResponseTooLargeError` without being buffered.
   * @default 10_485_760 (10 MiB)
   */
  maxResponseBytes?: number;
  /** Rate-budget settings; `false` turns the client-side limiter off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * Fetch the next page while the caller works on the current one when walking lists.
   * @default false
   */
  prefetchPages?: boolean;
  /** Allow running in a browser, where the key would be visible to anyone using the page. @default false */
  dangerouslyAllowBrowser?: boolean;
  /** Replace real time and waiting (for tests). */
  clock?: Clock;
}

export interface ResolvedConfig {
  apiKey: string;
  /** Base URL including `/partner/v1`, without a trailing slash. */
  apiUrl: string;
  environment: Environment;
  timeout: number;
  maxRetries: number;
  maxRetryAfter: number;
  fetch: typeof fetch | undefined;
  logger: Logger;
  hooks: ClientHooks | undefined;
  telemetry: Telemetry | undefined;
  maxResponseBytes: number;
  rateLimit: RateLimitOptions | false;
  prefetchPages: boolean;
  clock: ClientClock;
}

/** The longest delay Node's timers can hold (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const OPTIONS = new Set([
  'apiKey',
  'baseUrl',
  'environment',
  'timeout',
  'maxRetries',
  'fetch',
  'logger',
  'logLevel',
  'hooks',
  'telemetry',
  'maxResponseBytes',
  'rateLimit',
  'prefetchPages',
  'dangerouslyAllowBrowser',
  'clock',
]);
const RATE_LIMIT_OPTIONS = new Set(['shared', 'maxRetryAfter']);
const HOOKS = new Set(['beforeRequest', 'afterResponse']);

export const API_PREFIX = '/partner/v1';
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Validate options at construction; every refusal says what to change. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  refuseUnknown('', options, OPTIONS);
  refuseBrowser(options.dangerouslyAllowBrowser === true);
  const env = readEnv();
  const apiKey = options.apiKey ?? env.PARTNER_API_KEY;
  const environment = environmentOf(apiKey);
  if (options.environment !== undefined && options.environment !== environment) {
    throw new ConfigurationError(
      `The option environment: '${options.environment}' contradicts the API key, which is a ${environment} key ` +
        `(${environment === 'production' ? 'crp_live_' : 'crp_test_'}…). Use a ${options.environment} key or drop the option.`,
    );
  }
  // A partner's own logger wins over logLevel and PARTNER_SDK_LOG.
  const consoleLog = options.logger ? undefined : consoleLogging(options.logLevel, env.PARTNER_SDK_LOG);
  // Wrapped once here, so that nothing a partner's logger or telemetry throws reaches a call.
  const partner = guardPartnerCode(options.logger ?? consoleLog?.logger ?? {}, options.telemetry, apiKey as string);
  return {
    apiKey: apiKey as string,
    apiUrl: apiUrlOf(options.baseUrl ?? env.PARTNER_API_BASE_URL),
    environment,
    timeout: positiveNumber('timeout', options.timeout, 30_000),
    maxRetries: retriesOf(options.maxRetries),
    maxRetryAfter: positiveNumber(
      'rateLimit.maxRetryAfter',
      options.rateLimit ? options.rateLimit.maxRetryAfter : undefined,
      60_000,
    ),
    fetch: options.fetch,
    logger: partner.logger,
    hooks: hooksOf(options.hooks),
    telemetry: teeTelemetry(partner.telemetry, consoleLog?.telemetry),
    maxResponseBytes: byteCount(options.maxResponseBytes),
    rateLimit: rateLimitOf(options.rateLimit),
    prefetchPages: options.prefetchPages ?? false,
    clock: withMonotonic(options.clock ?? realClock),
  };
}

function environmentOf(apiKey: string | undefined): Environment {
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'No API key. Pass { apiKey } to new PartnerClient() or set the PARTNER_API_KEY environment variable.',
    );
  }
  // undici would echo the whole header value, key included, in its error message.
  if (/[\u0000-\u001f\u007f]/.test(apiKey)) {
    throw new ConfigurationError(
      'The API key contains a line break, NUL or other control character, so it cannot be sent in a header. ' +
        'Check how the secret is loaded (a trailing newline from a file is common).',
    );
  }
  if (apiKey.startsWith('crp_live_')) return 'production';
  if (apiKey.startsWith('crp_test_')) return 'sandbox';
  throw new ConfigurationError(
    'The API key is not a partner key: it must start with crp_live_ (production) or crp_test_ (sandbox). ' +
      'Check that the right secret is configured.',
  );
}

function apiUrlOf(baseUrl: string | undefined): string {
  if (!baseUrl) {
    throw new ConfigurationError(
      'No base URL. Pass { baseUrl } (the service address, without /partner/v1) or set PARTNER_API_BASE_URL.',
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(
      `The base URL ${JSON.stringify(baseUrl)} is not an absolute URL such as https://api.example.com.`,
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    throw new ConfigurationError(
      `The base URL must use https (plain http is allowed only for loopback hosts such as a local sandbox); got ${url.protocol}//${url.host}.`,
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigurationError('The base URL must not carry a query, a fragment or credentials.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PREFIX)) {
    throw new ConfigurationError(
      `The base URL should not include ${API_PREFIX}; the SDK adds it. Use ${url.origin}${path.slice(0, -API_PREFIX.length)}.`,
    );
  }
  return `${url.origin}${path}${API_PREFIX}`;
}

function rateLimitOf(rateLimit: ClientOptions['rateLimit']): RateLimitOptions | false {
  if (rateLimit === undefined) return {};
  if (rateLimit === false) return rateLimit;
  refuseUnknown('rateLimit.', rateLimit, RATE_LIMIT_OPTIONS);
  if (rateLimit.shared !== undefined && !isSharedBudget(rateLimit.shared)) {
    throw new ConfigurationError(
      `The option rateLimit.shared takes a budget made by redisBudget() from '@crp/partner-sdk/redis'; got ${kindWithoutValue(rateLimit.shared)}.`,
    );
  }
  return rateLimit;
}

/** Check a per-call or client-wide duration in milliseconds: positive, and one a timer can hold. */
export function positiveNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new ConfigurationError(
      `The option ${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days); got ${String(value)}.`,
    );
  }
  return value;
}

/** Refuse an option this version does not know (a typo would otherwise be silently ignored). */
export function refuseUnknown(prefix: string, options: object, known: ReadonlySet<string>): void {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(
      `The ${prefix ? `option ${prefix.slice(0, -1)}` : 'options'} must be an object; got ${kindWithoutValue(options)}.`,
    );
  }
  for (const name of Object.keys(options)) {
    if (!known.has(name)) {
      throw new ConfigurationError(
        `Unknown option ${prefix}${name.replace(/[^\w$.-]/g, '?').slice(0, 60)}. Known options: ${[...known].map((k) => prefix + k).join(', ')}.`,
      );
    }
  }
}

function hooksOf(hooks: ClientOptions['hooks']): ClientHooks | undefined {
  if (hooks === undefined) return undefined;
  refuseUnknown('hooks.', hooks, HOOKS);
  for (const [name, list] of Object.entries(hooks)) {
    if (list !== undefined && (!Array.isArray(list) || list.some((hook) => typeof hook !== 'function'))) {
      throw new ConfigurationError(`The option hooks.${name} must be an array of functions.`);
    }
  }
  return hooks;
}

function byteCount(value: number | undefined): number {
  if (value === undefined) return 10 * 1024 * 1024;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(
      `The option maxResponseBytes must be a positive whole number of bytes; got ${String(value)}.`,
    );
  }
  return value;
}

/** Check a per-call or client-wide `maxRetries`. */
export function retriesOf(value: number | undefined, fallback = 2): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > 10) {
    throw new ConfigurationError(`The option maxRetries must be a whole number from 0 to 10; got ${String(value)}.`);
  }
  return value;
}

function refuseBrowser(allowed: boolean): void {
  const g = globalThis as { window?: { document?: unknown }; document?: unknown };
  const inBrowser = typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
  if (inBrowser && !allowed) {
    throw new ConfigurationError(
      'PartnerClient is running in a browser, where the API key would be exposed to anyone using the page. ' +
        'Call the service from your backend instead, or pass dangerouslyAllowBrowser: true if you accept the risk.',
    );
  }
}

function readEnv(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env ?? {};
}
