/**
 * Reading a response body with a cap (`maxResponseBytes`): a larger or endless body is refused
 * after at most the cap has been read, never buffered whole.
 */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor(readonly declared: number | undefined) {
    super('response body over the limit');
  }
}

/**
 * The body as text, within the cap, given up when `signal` aborts (the attempt's time limit or the
 * caller's): fetch's own body stops on abort, but one from a partner's `fetch` or a proxy-like
 * wrapper may not, and a call must not outlive its time limit because of it.
 */
export function readBody(response: Response, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const reading = readCapped(response, maxBytes);
  if (!signal) return reading;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel(response);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    reading.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const length = response.headers.get('content-length');
  const declared = length !== null && /^\d+$/.test(length.trim()) ? Number(length) : undefined;
  if (declared !== undefined && declared > maxBytes) {
    cancel(response);
    throw new BodyTooLarge(declared);
  }
  const body = response.body;
  if (!body) return '';
  // A declared length within the cap: fetch itself refuses a body longer than it declared.
  if (declared !== undefined) return response.text();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(undefined);
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

export function cancel(response: Response): void {
  void response.body?.cancel().catch(() => undefined);
}
