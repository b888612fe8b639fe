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
 * wrapper may not, and a call must not outlive its time limit because of it. A body being read
 * chunk by chunk is cancelled through its reader (the stream is locked to it); one read whole
 * (a declared length) is at most the cap, and is left to finish.
 */
export function readBody(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (signal.aborted) {
    cancel(response);
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const onAbort = () => {
      if (reader) void reader.cancel().catch(() => undefined);
      else cancel(response);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    readCapped(response, maxBytes, (r) => (reader = r)).then(
      (text) => {
        done();
        resolve(text);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

async function readCapped(
  response: Response,
  maxBytes: number,
  onReader: (reader: ReadableStreamDefaultReader<Uint8Array>) => void,
): Promise<string> {
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
  onReader(reader);
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
  // One decode of the whole body: decoding chunk by chunk (`stream: true`) costs more per page (docs/performance.md).
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const whole = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}

export function cancel(response: Response): void {
  void response.body?.cancel().catch(() => undefined);
}
