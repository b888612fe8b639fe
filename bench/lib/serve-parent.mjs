/**
 * The worker's side of the bench's IPC (bench/lib/children.ts has the parent's), in plain JavaScript
 * so that workers run by plain node (bench/workers/fleet-sync.mjs) share it with the tsx ones.
 * Types: serve-parent.d.mts.
 */

/** Run `work` and send its value or its error, under `key` (`id` for a reply, `answer` for an answer). */
export function respond(send, key, id, work) {
  Promise.resolve()
    .then(work)
    .then(
      (value) => send({ [key]: id, value }),
      (error) => send({ [key]: id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
}

let lastAsk = 0;
const asked = new Map();

/** Ask the parent `{ ask, type, ... }` (answered by the parent's `worker.answer(type, …)`); needs `serveParent`. */
export function askParent(message) {
  return new Promise((resolve, reject) => {
    asked.set(++lastAsk, { resolve, reject });
    process.send?.({ ...message, ask: lastAsk });
  });
}

/**
 * Inside a worker: answer `{ id, type, ... }` requests with `handlers[type]`, and tell the parent
 * `{ type: 'ready' }` once listening.
 */
export function serveParent(handlers) {
  process.on('message', (message) => {
    if (message.answer !== undefined) {
      const entry = asked.get(message.answer);
      asked.delete(message.answer);
      if (message.error !== undefined) entry?.reject(new Error(message.error));
      else entry?.resolve(message.value);
      return;
    }
    respond(
      (m) => process.send?.(m),
      'id',
      message.id,
      () => {
        const handler = handlers[message.type];
        if (!handler) throw new Error(`unknown request ${message.type}`);
        return handler(message);
      },
    );
  });
  process.send?.({ type: 'ready' });
}
