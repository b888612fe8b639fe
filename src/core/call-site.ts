/**
 * Errors surface after queueing and retries, when the stack no longer shows who made the call.
 * We record the caller's stack synchronously, when the method is called (V8 formats it lazily,
 * so this costs little), and splice it under the error's first line when the call fails.
 */
export interface CallSite {
  stack?: string;
}

export function captureCallSite(): CallSite {
  const site: CallSite = {};
  if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(site, captureCallSite);
  else site.stack = new Error().stack ?? '';
  return site;
}

export function attachCallSite(error: unknown, site: CallSite): void {
  if (!(error instanceof Error) || !site.stack) return;
  const frames = site.stack.split('\n').filter((line) => /^\s+at /.test(line));
  if (frames.length === 0) return;
  const head = `${error.name}: ${error.message}`;
  try {
    error.stack = [head, ...frames].join('\n');
  } catch {
    // A frozen error keeps its own stack.
  }
}
