/**
 * Not public: a checkpoint may have a method under this symbol, which the watcher calls at the end
 * of each pass, before it waits for the next one (the Postgres mirror commits the changes it holds
 * there, so none waits out the interval). A symbol of the global registry: the same in every bundle.
 */
export const PASS_END = Symbol.for('@crp/partner-sdk/events:passEnd');

/** A checkpoint's end-of-pass hook, when it has one. */
export async function passEnded(checkpoint: object): Promise<void> {
  const hook = (checkpoint as { [PASS_END]?: () => Promise<void> })[PASS_END];
  if (typeof hook === 'function') await hook.call(checkpoint);
}
