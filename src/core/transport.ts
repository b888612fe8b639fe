import pRetry from 'p-retry';
import type * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise.js';
import { attachCallSite, captureCallSite } from './call-site.js';
import { positiveNumber, retriesOf, type ResolvedConfig } from './config.js';
import { errorFromResponse } from './error-from-response.js';
import { AbortedError, ConnectionError, PartnerError, UnexpectedResponseError, type RequestSummary } from './errors.js';
import { keyFingerprint } from './key-fingerprint.js';
import { classifyFetchFailure } from './network-error.js';
import { fillRoute } from './path.js';
import { createRateLimiter, RateLimiterClosedError, type RateLimiter } from './rate-limit/limiter.js';
import type { RateLimitState } from './rate-limit/headers.js';
import type { RequestOptions, RequestSpec } from './request.js';
import { responseMeta } from './response-meta.js';
import { mayRetry, retryDelay } from './retry-policy.js';

interface Attempt {
  request: RequestSummary;
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
  timeout: number;
  signal: AbortSignal | undefined;
}

/**
 * The one path every call takes: check input, wait for the rate budget, send with fetch, read the
 * whole body within the timeout, turn failures into typed errors, and repeat what is safe to repeat.
 *
 * fetch is called directly. ky was the plan, but with its retry, timeout and HTTP errors switched
 * off (this policy owns all three) it only added cost: a Request built and cloned per call, a
 * combined AbortSignal, ~1.2-1.3x the time of a bare fetch on loopback and ~30 ms of import time.
 */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  #limiter: RateLimiter | undefined;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    // Looked up per call, not bound now: test doubles that replace globalThis.fetch later still apply.
    this.#fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' };
  }

  /** The key's budget as last reported by the service. */
  get rateLimit(): RateLimitState | undefined {
    return this.#limiter?.state;
  }

  /**
   * Send one call. `build` runs inside the returned promise, so input it refuses rejects the
   * promise (with nothing sent) instead of throwing at the call site.
   */
  request<S extends z.ZodMiniType>(options: RequestOptions | undefined, build: () => RequestSpec<S>): APIPromise<z.infer<S>> {
    const site = captureCallSite();
    const result = this.#run(build, options).catch((error: unknown) => {
      attachCallSite(error, site);
      throw error;
    });
    return new APIPromise(result);
  }

  async close(): Promise<void> {
    const limiter = this.#limiter;
    this.#limiter = undefined;
    await limiter?.close();
  }

  async #run<S extends z.ZodMiniType>(build: () => RequestSpec<S>, options: RequestOptions = {}): Promise<WithResponse<z.infer<S>>> {
    const spec = build();
    const maxRetries = retriesOf(options.maxRetries, this.#config.maxRetries);
    const routePath = fillRoute(spec.route, spec.params);
    const path = `/partner/v1${routePath}`;
    const request: RequestSummary = { method: spec.method, path };
    const attempt: Attempt = {
      request,
      url: `${this.#config.apiUrl}${routePath}${queryString(spec.query)}`,
      init: {
        method: spec.method,
        headers: spec.body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
      },
      timeout: positiveNumber('timeout', options.timeout, this.#config.timeout),
      signal: options.signal,
    };
    const { clock, logger } = this.#config;
    return pRetry(
      async (attemptNumber) => {
        if (options.signal?.aborted) throw new AbortedError(`The call ${spec.method} ${path} was aborted by the caller's AbortSignal.`, { request, cause: options.signal.reason });
        const sent = await this.#scheduled(attempt, attemptNumber);
        return this.#parse(spec.response, sent.status, sent.headers, sent.body, request);
      },
      {
        retries: maxRetries,
        minTimeout: 0,
        maxTimeout: 0,
        onFailedAttempt: ({ error, attemptNumber }) => {
          if (error instanceof PartnerError) error.attempts = attemptNumber;
        },
        shouldRetry: async ({ error, attemptNumber, retriesLeft }) => {
          if (!mayRetry(error, spec.retry)) return false;
          const waitMs = retryDelay(error, attemptNumber, clock.now());
          if (error instanceof PartnerError && error.code === 'rate_limited' && waitMs > this.#config.maxRetryAfter) return false;
          logger.info?.('partner-sdk: retrying', { method: spec.method, path, attempt: attemptNumber, retriesLeft, waitMs, reason: (error as PartnerError).code });
          try {
            await clock.sleep(waitMs, options.signal);
          } catch {
            throw new AbortedError(`The call ${spec.method} ${path} was aborted by the caller's AbortSignal while waiting to retry.`, { request, cause: options.signal?.reason });
          }
          return true;
        },
      },
    );
  }

  async #scheduled(attempt: Attempt, attemptNumber: number): Promise<{ status: number; headers: Headers; body: string }> {
    const limiter = this.#rateLimiter();
    if (!limiter) return this.#send(attempt, attemptNumber);
    try {
      return await limiter.schedule(() => this.#send(attempt, attemptNumber), attempt.signal);
    } catch (error) {
      if (error instanceof PartnerError) throw error;
      const { request } = attempt;
      const where = `${request.method} ${request.path}`;
      if (attempt.signal?.aborted) {
        throw new AbortedError(`The call ${where} was aborted by the caller's AbortSignal while waiting for the rate budget.`, { request, cause: attempt.signal.reason });
      }
      if (error instanceof RateLimiterClosedError) {
        throw new AbortedError(`The call ${where} was waiting for the rate budget when client.close() was called; nothing was sent.`, { request, cause: error });
      }
      // The limiter itself failed (e.g. the shared budget's Redis script): nothing was sent.
      throw new ConnectionError(
        `The call ${where} could not get a place in the rate budget, so nothing was sent: ${error instanceof Error ? error.message : String(error)}. ` +
          'With a shared budget, check the Redis connection.',
        false,
        { request, cause: error },
      );
    }
  }

  /** One HTTP attempt; the timeout covers the whole response, body included (a timeout that stopped at the headers would let a stalled body hang). */
  async #send(attempt: Attempt, attemptNumber: number): Promise<{ status: number; headers: Headers; body: string }> {
    const { request, timeout, signal: callerSignal } = attempt;
    const { clock, logger } = this.#config;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const started = clock.now();
    logger.debug?.('partner-sdk: request', { method: request.method, path: request.path, attempt: attemptNumber });
    try {
      const response = await this.#fetch(attempt.url, { ...attempt.init, signal: controller.signal });
      const body = await response.text();
      const now = clock.now();
      this.#limiter?.observe(response);
      logger.debug?.('partner-sdk: response', {
        method: request.method,
        path: request.path,
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        ms: now - started,
      });
      if (response.status >= 400) {
        throw errorFromResponse({ status: response.status, headers: response.headers, body, request, now });
      }
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (error instanceof PartnerError) throw error;
      throw classifyFetchFailure(error, { request, callerSignal, timedOut, timeout });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  #parse<S extends z.ZodMiniType>(schema: S, status: number, headers: Headers, body: string, request: RequestSummary): WithResponse<z.infer<S>> {
    const requestId = () => headers.get('x-request-id') ?? undefined;
    const where = `${request.method} ${request.path}`;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new UnexpectedResponseError(`The service answered ${where} with ${status} but the body is not valid JSON.`, { status, requestId: requestId(), request });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || '(body)';
      throw new UnexpectedResponseError(
        `The response to ${where} lacks a field the SDK needs or has it in an unexpected form: ${field}. ` +
          'This SDK version may not match the service; please report it with the request id.',
        { status, requestId: requestId(), request },
      );
    }
    return { data: parsed.data, response: responseMeta(status, headers, this.#config.clock.now()) };
  }

  #rateLimiter(): RateLimiter | undefined {
    const settings = this.#config.rateLimit;
    if (settings === false) return undefined;
    this.#limiter ??= createRateLimiter({
      id: keyFingerprint(this.#config.apiKey),
      logger: this.#config.logger,
      now: this.#config.clock.now,
      ...(settings.shared ? { shared: settings.shared } : {}),
    });
    return this.#limiter;
  }
}

function queryString(query: RequestSpec<z.ZodMiniType>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
