import { AbortedError, ConnectionError, TimeoutError, type RequestSummary } from './errors.js';
import { cleanText } from './sanitize.js';

/** Failures that prove the request never left: nothing was connected, so nothing was sent. */
const NEVER_SENT = /ECONNREFUSED|ConnectionRefused|connection refused|ENOTFOUND|EAI_AGAIN|getaddrinfo/i;

export interface FailureContext {
  request: RequestSummary;
  /** The caller's own signal. */
  callerSignal: AbortSignal | undefined;
  /** The attempt's time limit fired. */
  timedOut: boolean;
  timeout: number;
  secret: string;
}

/** The caller's signal stopped the call: a `TimeoutError` when that signal is a timeout (`AbortSignal.timeout()`), else `AbortedError`. */
export function stoppedByCaller(
  signal: AbortSignal,
  request: RequestSummary,
  during = '',
): AbortedError | TimeoutError {
  const where = `${request.method} ${request.path}`;
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new TimeoutError(
      `The call ${where} was stopped by the timeout of the AbortSignal passed as signal${during}.`,
      { request, cause: reason },
    );
  }
  return new AbortedError(`The call ${where} was aborted by the caller's AbortSignal${during}.`, {
    request,
    cause: reason,
  });
}

/**
 * Turn whatever fetch threw into the SDK's error: the caller's abort, our timeout, or a
 * connection failure that says whether the service may have acted on the request.
 * The original error is reduced to its code and cleaned message, so no request object (and so
 * no Authorization header) is kept in `cause`.
 */
export function classifyFetchFailure(error: unknown, context: FailureContext): Error {
  const { request, callerSignal, timedOut, timeout, secret } = context;
  const where = `${request.method} ${request.path}`;
  if (callerSignal?.aborted) return stoppedByCaller(callerSignal, request);
  if (timedOut) {
    return new TimeoutError(
      `No complete response to ${where} within ${timeout} ms. Raise the timeout option or try again later.`,
      { request },
    );
  }
  const detail = cleanText(describe(error), secret);
  const neverSent = NEVER_SENT.test(detail);
  return new ConnectionError(
    `Could not complete ${where}: ${detail}. ${
      neverSent
        ? 'The service was not reached; check the base URL and network.'
        : 'The connection failed; the service may or may not have acted on it.'
    }`,
    !neverSent,
    { request, cause: safeCopy(error, secret) },
  );
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string') parts.push(e.code);
    if (typeof e.message === 'string' && e.message) parts.push(e.message);
    current = e.cause;
  }
  return [...new Set(parts)].join(': ') || 'network error';
}

/** A stand-in for a foreign error: its name and cleaned message, none of its properties. */
export function safeCopy(error: unknown, secret: string): Error {
  const copy = new Error(cleanText(describe(error), secret));
  copy.name = error instanceof Error ? cleanText(error.name, secret, 60) : 'Error';
  return copy;
}
