/**
 * Reading a body within `maxResponseBytes`, on bodies fetch hands over: chunked streams (no
 * declared length, characters split across chunks), declared lengths, no body, and an abort while
 * a body that never ends is being read.
 */
import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readBody } from '../../src/core/body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A streamed body (what a chunked response gives), counting how often it was read and whether it was cancelled. */
function streamed(chunks: Uint8Array[], { endless = false } = {}) {
  const seen = { pulls: 0, cancelled: false };
  let i = 0;
  const source: UnderlyingDefaultSource<Uint8Array> = {
    pull(controller) {
      seen.pulls++;
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else if (!endless) controller.close();
      // endless: nothing more ever comes, and the stream never closes.
    },
    cancel() {
      seen.cancelled = true;
    },
  };
  // Nothing read ahead (high-water mark 0): each pull is a read the body asked for.
  const stream = new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
  return { seen, response: (headers: Record<string, string> = {}) => new Response(stream, { headers }) };
}

const never = new AbortController().signal;

describe('readBody', () => {
  it('decodes a chunked body whose characters are split across chunks', async () => {
    const all = bytes('{"name":"Café ☕ Noodles"}');
    const cut = all.indexOf(0xe2) + 1; // inside the three bytes of ☕
    const { response } = streamed([all.slice(0, 5), all.slice(5, cut), all.slice(cut)]);
    expect(await readBody(response(), 1000, never)).toBe('{"name":"Café ☕ Noodles"}');
  });

  it('reads a chunked body of exactly the cap, and refuses one byte more after reading at most the cap', async () => {
    expect(await readBody(streamed([bytes('12345'), bytes('67890')]).response(), 10, never)).toBe('1234567890');
    const over = streamed([bytes('12345'), bytes('67890'), bytes('!')]);
    const error = await readBody(over.response(), 10, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLarge);
    expect((error as BodyTooLarge).declared).toBeUndefined();
    expect(over.seen.pulls).toBe(3);
    expect(over.seen.cancelled).toBe(true);
  });

  it('reads a declared length of exactly the cap, and refuses a longer one without reading it', async () => {
    expect(await readBody(new Response('1234567890', { headers: { 'content-length': '10' } }), 10, never)).toBe(
      '1234567890',
    );
    const over = streamed([bytes('12345678901')]);
    const error = await readBody(over.response({ 'content-length': '11' }), 10, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLarge);
    expect((error as BodyTooLarge).declared).toBe(11);
    expect(over.seen.pulls).toBe(0);
    expect(over.seen.cancelled).toBe(true);
  });

  it('reads no body as empty text', async () => {
    expect(await readBody(new Response(null, { status: 204 }), 10, never)).toBe('');
  });

  it('gives up at once, with the signal’s reason, when the signal is already aborted', async () => {
    const body = streamed([bytes('{}')], { endless: true });
    const reason = new Error('stopped');
    const error = await readBody(body.response(), 10, AbortSignal.abort(reason)).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(body.seen.cancelled).toBe(true);
  });

  it('gives up when the signal aborts during a body that never ends, and cancels it', async () => {
    const body = streamed([bytes('{"partial":')], { endless: true });
    const controller = new AbortController();
    const reading = readBody(body.response(), 1000, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error('time limit');
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(body.seen.cancelled).toBe(true);
  });

  it('leaves no listener on the signal once the body is read', async () => {
    const listening = new Set<unknown>();
    let added = 0;
    const signal = {
      aborted: false,
      addEventListener: (_: string, listener: unknown, options: { once?: boolean }) => {
        expect(options.once).toBe(true);
        added++;
        listening.add(listener);
      },
      removeEventListener: (type: string, listener: unknown) => {
        if (type === 'abort') listening.delete(listener);
      },
    } as unknown as AbortSignal;
    expect(await readBody(new Response('{}'), 10, signal)).toBe('{}');
    expect(added).toBe(1);
    expect(listening.size).toBe(0);
  });
});
