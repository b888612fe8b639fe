import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { PagePromise, type PageData } from '../../src/core/pagination.js';

/**
 * The item iterator against a scripted list: which pages were requested, and when, is exactly
 * what a caller pays for in requests and rate budget.
 */
function scriptedList(pages: number[][], failAt?: number) {
  const requested: Array<string | undefined> = [];
  const fetchPage = (cursor: string | undefined) => {
    requested.push(cursor);
    const index = cursor === undefined ? 0 : Number(cursor);
    const result = (async () => {
      await Promise.resolve();
      if (index === failAt) throw new Error(`page ${index} failed`);
      const data: PageData<number> = { items: pages[index] ?? [], next_cursor: index + 1 < pages.length ? String(index + 1) : null };
      return { data, response: { status: 200, headers: new Headers(), requestId: undefined, rateLimit: undefined } };
    })();
    return new APIPromise(result);
  };
  return { requested, list: (prefetch = false) => new PagePromise(fetchPage, { prefetch }) };
}

describe('walking items with for await', () => {
  it('yields every item once, in order, across pages, skipping empty pages', async () => {
    const { list, requested } = scriptedList([[1, 2], [], [3], [4, 5, 6]]);
    const items: number[] = [];
    for await (const item of list()) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
    expect(requested).toEqual([undefined, '1', '2', '3']);
  });

  it('sends nothing until iteration starts', async () => {
    const { list, requested } = scriptedList([[1]]);
    const iterator = list()[Symbol.asyncIterator]();
    expect(requested).toEqual([]);
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(requested).toEqual([undefined]);
  });

  it('without prefetch, asks for page n+1 only after the last item of page n', async () => {
    const { list, requested } = scriptedList([[1, 2], [3]]);
    const iterator = list()[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    expect(requested).toEqual([undefined]);
    await iterator.next();
    expect(requested).toEqual([undefined, '1']);
  });

  it('with prefetch, asks for page n+1 as soon as page n is handed over, and no further on break', async () => {
    const { list, requested } = scriptedList([[1, 2], [3, 4], [5]]);
    const seen: number[] = [];
    for await (const item of list(true)) {
      seen.push(item);
      if (item === 1) expect(requested).toEqual([undefined, '1']);
      if (item === 3) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    // Page 2 was prefetched when page 1 was handed over; nothing after the break.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(requested).toEqual([undefined, '1', '2']);
  });

  it('rejects with the failing page and then ends', async () => {
    const { list } = scriptedList([[1], [2], [3]], 1);
    const iterator = list()[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    await expect(iterator.next()).rejects.toThrow('page 1 failed');
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it('does not surface a prefetched page failure when the caller stopped before it', async () => {
    const { list } = scriptedList([[1, 2], [3]], 1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for await (const item of list(true)) if (item === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
