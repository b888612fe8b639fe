import pRetry, { AbortError } from 'p-retry';
import type * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise.js';
import { attachCallSite, captureCallSite, type CallSite } from './call-site.js';
import { API_PREFIX, positiveNumber, refuseUnknown, retriesOf, type ResolvedConfig } from './config.js';
import {
  AbortedError,
  AmbiguousOutcomeError,
  PartnerApiError,
  PartnerError,
  RateLimitError,
  UnexpectedResponseError,
  type RequestSummary,
} from './errors.js';
import { Http, type Answer, type Outcome } from './http.js';
import type { CallObserver } from './instrumentation.js';
import { keyFingerprint } from './key-fingerprint.js';
import { stoppedByCaller } from './network-error.js';
import { outgoing, type CallInput, type Operation, type Outgoing } from './operation.js';
import { Gate, GateClosed, WaitTooLong } from './rate-limit/gate.js';
import type { RateLimitState } from './rate-limit/headers.js';
import { startSharedBudget } from './rate-limit/shared.js';
import type { RequestOptions, Settle } from './request.js';
import type { ResponseMeta } from './response-meta.js';
import { parseResponse } from '../schemas/response-check.js';
import { backoffDelay, mayHaveActed, mayRetry } from './retry-policy.js';

const CALL_OPTIONS = new Set(['signal', 'timeout', 'maxRetries']);

/** One call on its way: what every attempt shares. */
interface Call {
  operation: Operation;
  sent: Outgoing;
  request: RequestSummary;
  signal: AbortSignal | undefined;
  timeout: number;
  observer: CallObserver | undefined;
}

/**
 * The one path every call takes: check input, pass the gate (the rate budget and the server's
 * pauses), send through ky, read the whole body within the timeout, turn failures into typed
 * errors, and repeat what is safe to repeat (p-retry runs the loop).
 *
 * Who waits for what: the gate waits for everything the server imposes (Retry-After on any
 * status, an exhausted window, a pause another call or process received), capped by
 * `rateLimit.maxRetryAfter`; the retry loop waits only for its own backoff, when the server gave
 * no Retry-After. The caller's signal stops either.
 */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #http: Http;
  readonly #gate: Gate;
  readonly #server: { address: string; port: number };
  #sharingStarted = false;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.#http = new Http(config);
    this.#gate = new Gate({ clock: config.clock, maxWaitMs: config.maxRetryAfter, pacing: config.rateLimit !== false });
    const url = new URL(config.apiUrl);
    this.#server = { address: url.hostname, port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
  }

  /** The key's budget as last reported by the service. */
  get rateLimit(): RateLimitState | undefined {
    return this.#gate.state;
  }

  /**
   * Send one call of an operation. The input is checked inside the returned promise, so input
   * the row refuses rejects the promise (with nothing sent) instead of throwing at the call site.
   */
  call<T>(
    operation: Operation<T>,
    input: CallInput,
    options: RequestOptions | undefined,
    site: CallSite = captureCallSite(),
  ): APIPromise<T> {
    const result = this.#run(operation, input, options).catch((error: unknown) => {
      attachCallSite(error, site);
      throw error;
    });
    return new APIPromise(result);
  }

  /** Settle every waiting call and release the shared budget's connections; resolves within about a second. */
  close(): Promise<void> {
    return this.#gate.close();
  }

  async #run<T>(
    operation: Operation<T>,
    input: CallInput,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<T>> {
    const { maxRetries, timeout } = options === undefined ? this.#config : this.#limitsOf(options);
    const sent = outgoing(operation, input);
    const request: RequestSummary = { method: operation.method, path: `${API_PREFIX}${sent.path}` };
    const { clock, telemetry } = this.#config;
    const observer = telemetry?.startCall({
      operation: operation.name,
      method: operation.method,
      urlTemplate: `${API_PREFIX}${operation.route}`,
      serverAddress: this.#server.address,
      serverPort: this.#server.port,
    });
    const call: Call = { operation, sent, request, signal: options?.signal, timeout, observer };
    this.#startSharing();
    // Read only for telemetry, the one reader of a call's duration.
    const started = observer ? clock.now() : 0;
    let attempts = 0;
    /** The first failed attempt after which the service may have acted, for `input.settle`. */
    let mayHaveActedOn: PartnerError | undefined;
    try {
      const result = await pRetry(
        async (attemptNumber) => {
          attempts = attemptNumber;
          const outcome = await this.#attempt(call, attemptNumber);
          if (outcome.error) throw outcome.error;
          return this.#parse(operation.response, outcome, request);
        },
        {
          retries: maxRetries,
          minTimeout: 0,
          ...(call.signal ? { signal: call.signal } : {}),
          onFailedAttempt: ({ error }) => {
            if (!mayHaveActedOn && error instanceof PartnerError && mayHaveActed(error)) mayHaveActedOn = error;
          },
          shouldRetry: ({ error, attemptNumber }) => this.#shouldRetry(call, error, attemptNumber),
        },
      );
      observer?.end?.({
        attempts,
        durationMs: clock.now() - started,
        status: result.response.status,
        ...idOf(result.response.requestId),
      });
      return result;
    } catch (thrown) {
      let error = this.#typed(thrown, call);
      // A repeat refused with 409 after an attempt the service may have acted on: it may have met its own effect.
      const { settle } = input;
      if (
        settle &&
        mayHaveActedOn &&
        mayHaveActedOn !== error &&
        error instanceof PartnerApiError &&
        error.status === 409
      ) {
        const settled = await this.#settle(settle as Settle<T>, mayHaveActedOn, error, call);
        if (!(settled instanceof PartnerError)) {
          observer?.end?.({
            attempts,
            durationMs: clock.now() - started,
            status: settled.response.status,
            ...idOf(settled.response.requestId),
          });
          return settled;
        }
        error = settled;
      }
      error.attempts ??= attempts;
      if (error instanceof PartnerApiError) {
        const extra = operation.advice?.[error.code]?.(error, input);
        if (extra) error.message = `${error.message} ${extra}`;
      }
      observer?.end?.({
        attempts,
        durationMs: clock.now() - started,
        error,
        ...statusOf(error),
        ...idOf((error as { requestId?: string }).requestId),
      });
      throw error;
    }
  }

  /** A call's own options, checked; a call that gives none takes the client's as they are. */
  #limitsOf(options: RequestOptions): { maxRetries: number; timeout: number } {
    refuseUnknown('', options, CALL_OPTIONS);
    return {
      maxRetries: retriesOf(options.maxRetries, this.#config.maxRetries),
      timeout: positiveNumber('timeout', options.timeout, this.#config.timeout),
    };
  }

  /**
   * Reads the state back through the call's hook: the call's result when the earlier attempt took
   * effect, else an {@link AmbiguousOutcomeError} carrying both failures.
   */
  async #settle<T>(
    settle: Settle<T>,
    earlier: PartnerError,
    repeat: PartnerApiError,
    call: Call,
  ): Promise<WithResponse<T> | AmbiguousOutcomeError> {
    let read: WithResponse<T> | undefined;
    let readError: unknown;
    try {
      read = await settle.read({ earlier, repeat, signal: call.signal });
    } catch (error) {
      readError = error;
    }
    if (read) return read;
    const { method, path } = call.request;
    const first = earlier instanceof PartnerApiError ? `${earlier.status} ${earlier.code}` : earlier.code;
    const why =
      readError === undefined
        ? 'the state read back is not what it produces'
        : `reading the state back failed too (${readError instanceof PartnerError ? readError.code : 'error'})`;
    return new AmbiguousOutcomeError(
      `${method} ${path} failed with ${first} after the service may have acted, and its repeat was refused with ${repeat.status} ${repeat.code}; ` +
        `${why}, so whether the first attempt took effect is unknown. Check ${settle.check} before trying again.`,
      { request: call.request, earlier, repeat, ...(readError === undefined ? {} : { cause: readError }) },
    );
  }

  /** One attempt through the gate. Nothing sent (a refused wait, close, abort) is final: p-retry's AbortError. */
  async #attempt(call: Call, attemptNumber: number): Promise<Outcome> {
    const { observer, operation, sent } = call;
    const waited =
      observer?.waited &&
      ((reason: Parameters<NonNullable<CallObserver['waited']>>[0]['reason'], ms: number) =>
        observer.waited?.({ reason, ms }));
    let startedAt = 0;
    try {
      const outcome = await this.#gate.run(
        call,
        call.signal,
        () => {
          const headers: Record<string, string> = {};
          observer?.attemptStart?.({ attempt: attemptNumber, headers });
          if (observer?.attemptEnd || this.#config.logger.debug) startedAt = this.#config.clock.now();
          this.#config.logger.debug?.('partner-sdk: request', {
            method: operation.method,
            path: call.request.path,
            attempt: attemptNumber,
          });
          return this.#http.attempt({
            request: call.request,
            method: operation.method,
            path: sent.path.slice(1),
            query: sent.query,
            body: sent.body,
            headers,
            timeout: call.timeout,
            signal: call.signal,
            context: { operation: operation.name, attempt: attemptNumber },
          });
        },
        waited,
      );
      if (observer?.attemptEnd) this.#reportAttempt(observer, attemptNumber, startedAt, outcome);
      const { debug } = this.#config.logger;
      if (debug) {
        const status = outcome.answer?.status ?? (outcome.error ? statusOf(outcome.error).status : undefined);
        const requestId = outcome.answer?.requestId ?? (outcome.error as { requestId?: string } | undefined)?.requestId;
        debug.call(this.#config.logger, 'partner-sdk: response', {
          method: operation.method,
          path: call.request.path,
          status,
          requestId,
          ms: this.#config.clock.now() - startedAt,
        });
      }
      if (outcome.error) outcome.error.attempts = attemptNumber;
      return outcome;
    } catch (error) {
      throw new AbortError(this.#notSent(error, call) as Error);
    }
  }

  async #shouldRetry(call: Call, error: unknown, attemptNumber: number): Promise<boolean> {
    if (!mayRetry(error, call.operation.retry)) return false;
    const { observer } = call;
    const reason = error instanceof PartnerError ? error.code : 'error';
    const serverWait = error instanceof PartnerApiError ? error.retryAfterMs : undefined;
    if (serverWait !== undefined) {
      // The server's word: the gate holds the next attempt (and every other call) that long.
      if (serverWait > this.#config.maxRetryAfter) return false;
      observer?.retrying?.({ attempt: attemptNumber, reason, waitMs: serverWait });
      return true;
    }
    const { clock } = this.#config;
    const waitMs = backoffDelay(attemptNumber, clock.random ?? Math.random);
    observer?.retrying?.({ attempt: attemptNumber, reason, waitMs });
    this.#config.logger.info?.('partner-sdk: retrying', {
      method: call.request.method,
      path: call.request.path,
      attempt: attemptNumber,
      waitMs,
      reason,
    });
    await clock.sleep(waitMs, call.signal);
    observer?.waited?.({ reason: 'backoff', ms: waitMs });
    return true;
  }

  /** Why an attempt was not sent, as the SDK's error. */
  #notSent(error: unknown, call: Call): PartnerError {
    const { request } = call;
    const where = `${request.method} ${request.path}`;
    if (error instanceof WaitTooLong || error instanceof GateClosed) {
      const refused = this.#refused(error, where, request);
      refused.sent = false;
      return refused;
    }
    return this.#typed(error, call);
  }

  /** An attempt the gate would not send: its wait is too long, or the client closed. */
  #refused(error: WaitTooLong | GateClosed, where: string, request: RequestSummary): PartnerError {
    if (error instanceof WaitTooLong) {
      const what =
        error.reason === 'rate_budget'
          ? "the key's rate budget for this window is spent"
          : 'the service asked this key to pause (Retry-After)';
      return new RateLimitError({
        status: 429,
        code: 'rate_limited',
        message:
          `The call ${where} was not sent: ${what}, and the wait of ${Math.ceil(error.ms)} ms is longer than rateLimit.maxRetryAfter ` +
          `(${this.#config.maxRetryAfter} ms). Try again after retryAfterMs, or raise maxRetryAfter.`,
        request,
        retryAfterMs: Math.ceil(error.ms),
      });
    }
    return new AbortedError(
      `The call ${where} was waiting to be sent when client.close() was called; nothing was sent.`,
      { request, cause: error },
    );
  }

  /**
   * Whatever ended the call, as the SDK's error. p-retry and a wait rethrow the caller's abort
   * reason as it is; a reason that is an SDK error (another call's 401, handed on by the caller)
   * is not this call's failure, so the reason is checked before the error's class.
   */
  #typed(thrown: unknown, call: Call): PartnerError {
    if (call.signal?.aborted && thrown === call.signal.reason)
      return stoppedByCaller(call.signal, call.request, ' while waiting');
    if (thrown instanceof PartnerError) return thrown;
    if (call.signal?.aborted) return stoppedByCaller(call.signal, call.request, ' while waiting');
    return new UnexpectedResponseError(`The call ${call.request.method} ${call.request.path} failed inside the SDK.`, {
      status: 0,
      requestId: undefined,
      request: call.request,
      cause: thrown,
    });
  }

  #reportAttempt(observer: CallObserver, attempt: number, startedAt: number, outcome: Outcome): void {
    const error = outcome.error;
    const status = outcome.answer?.status ?? (error ? statusOf(error).status : undefined);
    const state = outcome.limits?.rateLimit;
    observer.attemptEnd?.({
      attempt,
      durationMs: this.#config.clock.now() - startedAt,
      ...(status === undefined ? {} : { status }),
      ...idOf(outcome.answer?.requestId ?? (error as { requestId?: string } | undefined)?.requestId),
      ...(error ? { error } : {}),
      ...(state ? { rateLimit: { limit: state.limit, remaining: state.remaining } } : {}),
    });
  }

  #startSharing(): void {
    const settings = this.#config.rateLimit;
    if (this.#sharingStarted || settings === false || !settings.shared) return;
    this.#sharingStarted = true;
    const sharing = startSharedBudget(settings.shared, {
      id: `crp-partner-sdk:${keyFingerprint(this.#config.apiKey)}`,
      now: this.#config.clock.now,
      logger: this.#config.logger,
      onPause: (ms) => this.#gate.pauseFromElsewhere(ms),
      budget: () => this.#gate.state,
      onBudget: (state) => this.#gate.learn(state),
    });
    this.#gate.share(sharing);
  }

  #parse<T>(schema: z.ZodMiniType<T>, outcome: Outcome, request: RequestSummary): WithResponse<T> {
    const { status, headers, body, requestId } = outcome.answer as Answer;
    const where = `${request.method} ${request.path}`;
    let json: unknown;
    try {
      json = body.trim() === '' ? undefined : JSON.parse(body);
    } catch {
      throw new UnexpectedResponseError(
        `The service answered ${where} with ${status} but the body is not valid JSON.`,
        { status, requestId, request },
      );
    }
    const parsed = parseResponse(schema, json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || '(body)';
      throw new UnexpectedResponseError(
        `The response to ${where} lacks a field the SDK needs or has it in an unexpected form: ${field}. ` +
          'This SDK version may not match the service; please report it with the request id.',
        { status, requestId, request },
      );
    }
    const response: ResponseMeta = { status, headers, requestId, rateLimit: outcome.limits?.rateLimit };
    return { data: parsed.data, response };
  }
}

function idOf(requestId: string | undefined | null): { requestId?: string } {
  return requestId ? { requestId } : {};
}

function statusOf(error: PartnerError): { status?: number } {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status > 0 ? { status } : {};
}
