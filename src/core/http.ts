/**
 * One HTTP attempt, through ky: `prefixUrl`, `searchParams`, `json`, headers, `fetch` and the
 * partners' hooks are ky's; its retry (0), HTTP errors (off), timeout (off) and redirects
 * (manual) are switched off because the transport owns them. ky's timeout stops at the headers, so
 * the attempt's limit is an `AbortSignal.timeout` joined with the caller's through
 * `AbortSignal.any`, and covers the body too.
 *
 * An attempt never throws: it returns what happened (`Outcome`), with the rate-limit signals of
 * the response parsed once, so the gate learns from the value the task returns and nothing else.
 */
import ky, { type KyInstance } from 'ky';
import { BodyTooLarge, cancel, readBody } from './body.js';
import type { ResolvedConfig } from './config.js';
import { errorFromResponse } from './error-from-response.js';
import { HookError, PartnerError, RedirectError, ResponseTooLargeError, type RequestSummary } from './errors.js';
import { HookFailure, kyHooks } from './hooks.js';
import { classifyFetchFailure, safeCopy } from './network-error.js';
import type { Signals } from './rate-limit/gate.js';
import { parseRateLimitHeaders } from './rate-limit/headers.js';
import { parseRetryAfter } from './rate-limit/retry-after.js';
import { cleanText } from './sanitize.js';

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
}

export interface Outcome {
  signals?: Signals;
  answer?: Answer;
  error?: PartnerError;
}

export class Http {
  readonly #ky: KyInstance;
  readonly #secret: string;
  readonly #maxBytes: number;
  readonly #now: () => number;

  constructor(config: ResolvedConfig) {
    this.#secret = config.apiKey;
    this.#maxBytes = config.maxResponseBytes;
    this.#now = config.clock.now;
    this.#ky = ky.create({
      prefixUrl: `${config.apiUrl}/`,
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      retry: 0,
      throwHttpErrors: false,
      timeout: false,
      redirect: 'manual',
      hooks: kyHooks(config.hooks),
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }

  async attempt(input: AttemptInput): Promise<Outcome> {
    const { request } = input;
    const limit = AbortSignal.timeout(input.timeout);
    const signal = input.signal ? AbortSignal.any([input.signal, limit]) : limit;
    const outcome: Outcome = {};
    let status = 0;
    let requestId: string | undefined;
    try {
      const response = await this.#ky(input.path, {
        method: input.method,
        headers: input.headers,
        signal,
        context: input.context,
        ...(input.query ? { searchParams: input.query as Record<string, string | number | boolean> } : {}),
        ...(input.body === undefined ? {} : { json: input.body }),
      });
      const now = this.#now();
      status = response.status;
      outcome.signals = {
        rateLimit: parseRateLimitHeaders(response.headers, now),
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now),
      };
      const idText = response.headers.get('x-request-id');
      requestId = idText === null ? undefined : cleanText(idText, this.#secret, 100);
      if (status >= 300 && status < 400) {
        cancel(response);
        outcome.error = this.#redirect(response, request, requestId);
        return outcome;
      }
      const body = await readBody(response, this.#maxBytes);
      if (status >= 400) {
        const { retryAfterMs } = outcome.signals;
        outcome.error = errorFromResponse({ status, headers: response.headers, body, request, retryAfterMs, secret: this.#secret });
      } else {
        outcome.answer = { status, headers: response.headers, body };
      }
    } catch (error) {
      outcome.error = this.#failure(error, input, status, requestId, limit.aborted);
    }
    return outcome;
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

  #failure(error: unknown, input: AttemptInput, status: number, requestId: string | undefined, timedOut: boolean): PartnerError {
    const { request } = input;
    const where = `${request.method} ${request.path}`;
    if (error instanceof PartnerError) return error;
    if (error instanceof BodyTooLarge) {
      const size = error.declared === undefined ? 'more than' : `${error.declared} bytes, over`;
      return new ResponseTooLargeError(
        `The response to ${where} (${status}) was ${size} the limit of ${this.#maxBytes} bytes, so it was not read. Raise maxResponseBytes if that is expected.`,
        { status, requestId, limitBytes: this.#maxBytes, request },
      );
    }
    if (error instanceof HookFailure) {
      const thrown = safeCopy(error.thrown, this.#secret);
      return new HookError(`Your ${error.hook} hook threw during ${where}: ${thrown.message}`, error.hook, { request, cause: thrown });
    }
    return classifyFetchFailure(error, { request, callerSignal: input.signal, timedOut, timeout: input.timeout, secret: this.#secret }) as PartnerError;
  }
}
