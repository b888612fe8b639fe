/**
 * One HTTP attempt, through ky: it builds and sends the request (`prefixUrl`, `searchParams`,
 * `json`, headers, the attempt's signal, `fetch` and the partners' hooks). Its retry, HTTP errors,
 * timeout and redirects are switched off because the SDK's own rules own them: the transport
 * repeats (p-retry, with the contract's retry safety and the server's waits), every status is read
 * here into a typed error, a redirect is refused (it could carry the key elsewhere), and ky's
 * timeout stops at the headers, so the attempt's limit is one timer of ours that aborts the
 * attempt's controller (the caller's signal aborts it too), armed when the attempt starts and
 * cleared once the body is read: it covers the body, and no timer outlives the attempt.
 *
 * An attempt never throws: it returns what happened (`Outcome`), with the rate-limit fields of
 * the response parsed once, so the gate learns from the value the task returns and nothing else.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { BodyTooLarge, cancel, readBody } from './body.js';
import type { ResolvedConfig } from './config.js';
import { errorFromResponse } from './error-from-response.js';
import {
  HookError,
  PartnerError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  type RequestSummary,
} from './errors.js';
import { HookFailure, kyHooks } from './hooks.js';
import { classifyFetchFailure, safeCopy } from './network-error.js';
import { readServerLimits, type ServerLimits } from './rate-limit/headers.js';
import { rateLimitedWait as waitWhenRateLimited } from './retry-policy.js';
import { cleanText } from './sanitize.js';

/** The reason an attempt's own signal is aborted with once the attempt is over (nothing reads it). */
const ATTEMPT_OVER = Object.freeze({ attempt: 'over' });

export interface AttemptInput {
  request: RequestSummary;
  method: string;
  /** Path under the API prefix, without the leading slash. */
  path: string;
  query: Record<string, string | number | boolean | undefined> | undefined;
  body: unknown;
  /** Sent as they are when the attempt starts (telemetry may add trace headers). */
  headers: Record<string, string>;
  timeout: number;
  signal: AbortSignal | undefined;
  /** Passed to partners' hooks as ky's `options.context`. */
  context: { operation: string; attempt: number };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  /** The response's `x-request-id` as sent (read once; the error paths use a cleaned copy). */
  requestId: string | undefined;
}

export interface Outcome {
  limits?: ServerLimits;
  answer?: Answer;
  error?: PartnerError;
}

export class Http {
  readonly #kyOptions: KyOptions;
  /** Made on the first attempt (see `#client`). */
  #ky: KyInstance | undefined;
  #kyLoading: Promise<KyInstance> | undefined;
  readonly #secret: string;
  readonly #maxBytes: number;
  readonly #now: () => number;
  readonly #random: () => number;
  /** ky's `context` reaches partners' hooks only. */
  readonly #hooked: boolean;

  constructor(config: ResolvedConfig) {
    this.#secret = config.apiKey;
    this.#hooked = Boolean(config.hooks?.beforeRequest?.length || config.hooks?.afterResponse?.length);
    this.#maxBytes = config.maxResponseBytes;
    this.#now = config.clock.now;
    this.#random = config.clock.random ?? Math.random;
    this.#kyOptions = {
      prefixUrl: `${config.apiUrl}/`,
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      retry: 0,
      throwHttpErrors: false,
      timeout: false,
      redirect: 'manual',
      ...(this.#hooked ? { hooks: kyHooks(config.hooks) } : {}),
      // Without one, ky takes the global fetch when each request is made (test tools replace it).
      ...(config.fetch ? { fetch: config.fetch } : {}),
    };
  }

  async attempt(input: AttemptInput): Promise<Outcome> {
    const { request, signal: caller } = input;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`No complete response within ${input.timeout} ms`, 'TimeoutError'));
    }, input.timeout);
    // Like AbortSignal.timeout's: a pending attempt alone does not keep the process alive.
    timer.unref?.();
    const onAbort = caller && (() => controller.abort(caller.reason));
    if (onAbort) {
      if (caller.aborted) onAbort();
      else caller.addEventListener('abort', onAbort, { once: true });
    }
    const outcome: Outcome = {};
    let status = 0;
    /** The response's `x-request-id` as sent; an error carries it cleaned (`#errorId`). */
    let idText: string | null = null;
    try {
      const client = this.#ky ?? (await this.#client());
      const response = await client(input.path, {
        method: input.method,
        signal: controller.signal,
        headers: input.headers,
        ...(input.query ? { searchParams: input.query } : {}),
        ...(this.#hooked ? { context: input.context } : {}),
        ...(input.body === undefined ? {} : { json: input.body }),
      });
      const now = this.#now();
      status = response.status;
      outcome.limits = readServerLimits(response.headers, now);
      idText = response.headers.get('x-request-id');
      if (status >= 300 && status < 400) {
        cancel(response);
        outcome.error = this.#redirect(response, request, this.#errorId(idText));
        return outcome;
      }
      const body = await readBody(response, this.#maxBytes, controller.signal);
      if (status >= 400) {
        const limits = outcome.limits;
        const rateLimitedWait = () => waitWhenRateLimited(limits.rateLimit, now, input.context.attempt, this.#random);
        const error = errorFromResponse({
          status,
          headers: response.headers,
          body,
          request,
          retryAfterMs: limits.retryAfterMs,
          rateLimitedWait,
          secret: this.#secret,
        });
        // A rate limit without Retry-After holds the key for the wait the error states, as Retry-After would.
        if (error instanceof RateLimitError) limits.retryAfterMs ??= error.retryAfterMs;
        outcome.error = error;
      } else {
        outcome.answer = { status, headers: response.headers, body, requestId: idText ?? undefined };
      }
    } catch (error) {
      outcome.error = this.#failure(error, input, status, this.#errorId(idText), timedOut);
    } finally {
      clearTimeout(timer);
      if (onAbort) caller?.removeEventListener('abort', onAbort);
      // ky joins this signal to one of its own (`AbortSignal.any`), and fetch's Request listens to
      // the joined one until a finalizer removes that listener after a full collection; while it
      // listens, Node holds the joined signal strongly, so every call's signal, Request and
      // listeners would outlive the scavenges and be promoted. Aborted once the attempt is over
      // (its body read or cancelled), they go at the next scavenge: bench/attempt-signals.ts.
      controller.abort(ATTEMPT_OVER);
    }
    return outcome;
  }

  /**
   * ky, loaded when the first attempt needs it: evaluating ky builds a Request (its check for
   * streamed bodies), which loads Node's fetch implementation, ~20 ms that an application would
   * otherwise pay at import even if it makes no call for a while. The first call loads it anyway.
   * (Bundled, a lazily loaded ky costs ~0.8 kB gzip more: bundlers hoist and trim it less.)
   */
  #client(): Promise<KyInstance> {
    this.#kyLoading ??= import('ky').then(({ default: ky }) => {
      this.#ky = ky.create(this.#kyOptions);
      return this.#ky;
    });
    return this.#kyLoading;
  }

  /** A request id as an error carries it: text from the other side, cleaned (a success hands it on as sent). */
  #errorId(idText: string | null): string | undefined {
    return idText === null ? undefined : cleanText(idText, this.#secret, 100);
  }

  #redirect(response: Response, request: RequestSummary, requestId: string | undefined): RedirectError {
    const target = response.headers.get('location');
    const location = target === null ? undefined : cleanText(target, this.#secret, 200);
    return new RedirectError(
      `The service answered ${request.method} ${request.path} with a ${response.status} redirect to ${location ?? '(no location)'}. ` +
        'The SDK does not follow redirects (one could carry the key or a body elsewhere): check the base URL.',
      { status: response.status, requestId, location, request },
    );
  }

  #failure(
    error: unknown,
    input: AttemptInput,
    status: number,
    requestId: string | undefined,
    timedOut: boolean,
  ): PartnerError {
    const { request } = input;
    const where = `${request.method} ${request.path}`;
    if (error instanceof PartnerError) return error;
    if (error instanceof BodyTooLarge) {
      const size = error.declared === undefined ? 'more than' : `${error.declared} bytes, over`;
      return new ResponseTooLargeError(
        `The response to ${where} (${status}) was ${size} the limit of ${this.#maxBytes} bytes, so it was ` +
          `not read. Raise maxResponseBytes if that is expected.`,
        { status, requestId, limitBytes: this.#maxBytes, request },
      );
    }
    if (error instanceof HookFailure) {
      const thrown = safeCopy(error.thrown, this.#secret);
      return new HookError(`Your ${error.hook} hook threw during ${where}: ${thrown.message}`, error.hook, {
        request,
        cause: thrown,
      });
    }
    return classifyFetchFailure(error, {
      request,
      callerSignal: input.signal,
      timedOut,
      timeout: input.timeout,
      secret: this.#secret,
    }) as PartnerError;
  }
}
