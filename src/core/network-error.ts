import { AbortedError, ConnectionError, TimeoutError, type RequestSummary } from './errors.js';

/** Failures that prove the request never left: nothing was connected, so nothing was sent. */
const NEVER_SENT = /ECONNREFUSED|ConnectionRefused|connection refused|ENOTFOUND|EAI_AGAIN|getaddrinfo/i;

/**
 * Turn whatever fetch threw into the SDK's error: the caller's abort, our timeout, or a
 * connection failure that says whether the service may have acted on the request.
 * The original error is reduced to its code and message, so no request object (and so no
 * Authorization header) is kept in `cause`.
 */
export function classifyFetchFailure(
  error: unknown,
  context: { request: RequestSummary; callerSignal: AbortSignal | undefined; timedOut: boolean; timeout: number },
): Error {
  const { request, callerSignal, timedOut, timeout } = context;
  const where = `${request.method} ${request.path}`;
  if (callerSignal?.aborted) {
    return new AbortedError(`The call ${where} was aborted by the caller's AbortSignal.`, {
      request,
      cause: callerSignal.reason,
    });
  }
  if (timedOut) {
    return new TimeoutError(
      `No complete response to ${where} within ${timeout} ms. Raise the timeout option or try again later.`,
      { request },
    );
  }
  const detail = describe(error);
  const neverSent = NEVER_SENT.test(detail);
  return new ConnectionError(
    `Could not complete ${where}: ${detail}. ${
      neverSent ? 'The service was not reached; check the base URL and network.' : 'The connection failed; the service may or may not have acted on it.'
    }`,
    !neverSent,
    { request, cause: safeCause(error) },
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

function safeCause(error: unknown): Error {
  const cause = new Error(describe(error));
  cause.name = error instanceof Error ? error.name : 'Error';
  return cause;
}
