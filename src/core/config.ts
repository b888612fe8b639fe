import { loggerForLevel, type LogLevel } from './console-logger.js';
import { ConfigurationError } from './errors.js';
import type { Logger } from './logger.js';
import { isSharedBudget, kindOf, type SharedBudget } from './rate-limit/shared.js';

/** Which service a key belongs to: `production` (`crp_live_` keys) or `sandbox` (`crp_test_` keys). */
export type Environment = 'production' | 'sandbox';

/** Waiting and time, replaceable in tests so that retries and backoff run without real sleeping. */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
  /** Resolve after `ms`, or reject with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How the client paces its calls to stay within the key's budget (`rateLimit` in {@link ClientOptions}). */
export interface RateLimitOptions {
  /**
   * Share the key's budget with every other process using the same key: `redisBudget(redis)`
   * from `@crp/partner-sdk/redis`. Without it the budget lives in this process.
   */
  shared?: SharedBudget;
  /**
   * Longest `Retry-After` a call will wait for on a 429 before failing with `RateLimitError`.
   * @default 60_000 (milliseconds)
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
  /** Per-attempt time limit covering headers and body, in milliseconds. @default 30_000 */
  timeout?: number;
  /** How many times a failed call is repeated when that is safe (0..10). @default 2 */
  maxRetries?: number;
  /**
   * A fetch implementation to use instead of the global one (a proxy agent, a test double). It is
   * called as `fetch(url, init)` with a string URL, a plain headers object and a string body.
   */
  fetch?: typeof fetch;
  /** Receives debug, info, warn and error events; never the key. Takes precedence over `logLevel`. */
  logger?: Logger;
  /**
   * Without a `logger`: print the SDK's events from this level up to stderr as readable lines
   * (requests, retries, waits, the rate budget). @default process.env.PARTNER_SDK_LOG, else 'off'
   */
  logLevel?: LogLevel;
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
  rateLimit: RateLimitOptions | false;
  prefetchPages: boolean;
  clock: Clock;
}

const API_PREFIX = '/partner/v1';
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Validate options at construction; every refusal says what to change. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
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
  return {
    apiKey: apiKey as string,
    apiUrl: apiUrlOf(options.baseUrl ?? env.PARTNER_API_BASE_URL),
    environment,
    timeout: positiveNumber('timeout', options.timeout, 30_000),
    maxRetries: retriesOf(options.maxRetries),
    maxRetryAfter: positiveNumber('rateLimit.maxRetryAfter', options.rateLimit ? options.rateLimit.maxRetryAfter : undefined, 60_000),
    fetch: options.fetch,
    logger: options.logger ?? loggerForLevel(options.logLevel, env.PARTNER_SDK_LOG),
    rateLimit: rateLimitOf(options.rateLimit),
    prefetchPages: options.prefetchPages ?? false,
    clock: options.clock ?? realClock,
  };
}

function environmentOf(apiKey: string | undefined): Environment {
  if (apiKey === undefined || apiKey === '') {
    throw new ConfigurationError(
      'No API key. Pass { apiKey } to new PartnerClient() or set the PARTNER_API_KEY environment variable.',
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
    throw new ConfigurationError(`The base URL ${JSON.stringify(baseUrl)} is not an absolute URL such as https://api.example.com.`);
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
  if ((rateLimit as { redis?: unknown }).redis !== undefined) {
    throw new ConfigurationError(
      "The option rateLimit.redis is gone: the Redis budget has its own import path. Write import { redisBudget } from '@crp/partner-sdk/redis'; " +
        'and pass rateLimit: { shared: redisBudget(redis) } with the same ioredis client, options or redis:// URL.',
    );
  }
  if (rateLimit.shared !== undefined && !isSharedBudget(rateLimit.shared)) {
    throw new ConfigurationError(
      `The option rateLimit.shared takes a budget made by redisBudget() from '@crp/partner-sdk/redis'; got ${kindOf(rateLimit.shared)}.`,
    );
  }
  return rateLimit;
}

/** Check a per-call or client-wide duration in milliseconds. */
export function positiveNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`The option ${name} must be a positive number of milliseconds; got ${String(value)}.`);
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

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
