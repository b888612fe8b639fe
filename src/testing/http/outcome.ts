/**
 * What the shared handler decided for one request. Each transport delivers it its own way:
 * a Response is written; 'reset' drops the connection; 'hang' and 'aborted' send nothing.
 */
export type Outcome =
  | { type: 'response'; response: Response }
  | { type: 'reset' }
  | { type: 'hang' }
  /** The client gave up while the sandbox was waiting (a delay fault). */
  | { type: 'aborted' };

/** Wait `ms` real milliseconds; false when `signal` aborted first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves when `signal` aborts (never, if it never does). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
