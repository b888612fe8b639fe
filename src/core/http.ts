/**
 * One HTTP attempt, through ky: `prefixUrl`, `json`, headers, `fetch` and the partners' hooks are
 * ky's (the query string is built here, as ky would: see `withQuery`); its retry (0), HTTP errors (off), timeout (off) and redirects
 * (manual) are switched off because the transport owns them. ky's timeout stops at the headers, so
 * the attempt's limit is our own: one timer that aborts the attempt's controller (the caller's
 * signal aborts it too), armed when the attempt starts and cleared as soon as the body is read,
 * so it covers the body and no timer outlives the attempt (`AbortSignal.timeout` joined through
 * `AbortSignal.any` would keep a live timer and two more signals per call for the whole timeout).
 *
 * An attempt never throws: it returns what happened (`Outcome`), with the rate-limit signals of
 * the response parsed once, so the gate learns from the value the task returns and nothing else.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { BodyTooLarge, cancel, readBody } from './body.js';
import type { ResolvedConfig } from './config.js';
import { errorFromResponse } from './error-from-response.js';
import { HookError, PartnerError, RateLimitError, RedirectError, ResponseTooLargeError, type RequestSummary } from './errors.js';
import { HookFailure, kyHooks } from './hooks.js';
import { classifyFetchFailure, safeCopy } from './network-error.js';
import type { Signals } from './rate-limit/gate.js';
import { parseRateLimitHeaders } from './rate-limit/headers.js';
import { parseRetryAfter } from './rate-limit/retry-after.js';
import { rateLimitedWait as waitWhenRateLimited } from './retry-policy.js';
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
  /** The response's `x-request-id` as sent (read once; the error paths use a cleaned copy). */
  requestId: string | undefined;
}

export interface Outcome {
  signals?: Signals;
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
  /** ky's `context` reaches partners' hooks only: without hooks it is not passed (one merge less per call). */
  readonly #hooked: boolean;
  /** The attempt's signal goes to fetch directly rather than through ky (see the constructor). */
  readonly #direct: boolean;

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
      fetch: config.fetch ?? directFetch,
    };
    // Given to ky as `signal`, the attempt's signal is joined with ky's own through
    // AbortSignal.any (~17 µs and two more signals per call, a sixth of what the SDK adds to a
    // bare ky call). ky passes fetch any option it does not know, so without partners' hooks or
    // fetch (which see ky's request, and so its signal) the signal goes to fetch that way instead.
    this.#direct = !this.#hooked && !config.fetch;
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
    let requestId: string | undefined;
    let idText: string | null = null;
    try {
      const client = this.#ky ?? (await this.#client());
      const response = await client(withQuery(input.path, input.query), {
        method: input.method,
        ...(this.#direct ? { [DIRECT_SIGNAL]: controller.signal } : { signal: controller.signal }),
        ...(hasAny(input.headers) ? { headers: input.headers } : {}),
        ...(this.#hooked ? { context: input.context } : {}),
        ...(input.body === undefined ? {} : { json: input.body }),
      });
      const now = this.#now();
      status = response.status;
      outcome.signals = {
        rateLimit: parseRateLimitHeaders(response.headers, now),
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now),
      };
      idText = response.headers.get('x-request-id');
      requestId = idText === null ? undefined : cleanText(idText, this.#secret, 100);
      if (status >= 300 && status < 400) {
        cancel(response);
        outcome.error = this.#redirect(response, request, requestId);
        return outcome;
      }
      const body = await readBody(response, this.#maxBytes, controller.signal);
      if (status >= 400) {
        const signals = outcome.signals;
        const rateLimitedWait = () => waitWhenRateLimited(signals.rateLimit, now, input.context.attempt, this.#random);
        const error = errorFromResponse({ status, headers: response.headers, body, request, retryAfterMs: signals.retryAfterMs, rateLimitedWait, secret: this.#secret });
        // A rate limit without Retry-After holds the key for the wait the error states, as Retry-After would.
        if (error instanceof RateLimitError) signals.retryAfterMs ??= error.retryAfterMs;
        outcome.error = error;
      } else {
        outcome.answer = { status, headers: response.headers, body, requestId: idText ?? undefined };
      }
    } catch (error) {
      outcome.error = this.#failure(error, input, status, requestId, timedOut);
    } finally {
      clearTimeout(timer);
      if (onAbort) caller?.removeEventListener('abort', onAbort);
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

/** The option, unknown to ky, that carries the attempt's signal to `directFetch`. */
const DIRECT_SIGNAL = 'attemptSignal';

/** The global fetch, looked up per call (test tools replace it), with the attempt's signal. */
function directFetch(request: Request | URL | string, options?: RequestInit): Promise<Response> {
  const init = options as (RequestInit & { [DIRECT_SIGNAL]?: AbortSignal | undefined }) | undefined;
  const signal = init?.[DIRECT_SIGNAL];
  if (!signal) return globalThis.fetch(request, init);
  // ky made `init` for this call alone (the options the Request does not take): ours to change.
  init[DIRECT_SIGNAL] = undefined;
  init.signal = signal;
  return globalThis.fetch(request, init);
}

/**
 * The path with its query, serialised as ky's `searchParams` would be (URLSearchParams, undefined
 * values left out, `?` whenever the query has keys). Given to ky as `searchParams`, the query makes
 * ky build the Request twice, once without it and once with it: ~0.1 ms of a list page's time.
 */
function withQuery(path: string, query: AttemptInput['query']): string {
  if (!query || !hasAny(query)) return path;
  const params = new URLSearchParams();
  for (const key in query) {
    const value = query[key];
    if (value !== undefined) params.append(key, String(value));
  }
  return `${path}?${params.toString()}`;
}

function hasAny(record: object): boolean {
  for (const _ in record) return true;
  return false;
}
