import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { PagePromise, type PageData } from '../../src/core/pagination.js';
import { PartnerError, UnexpectedResponseError, ValidationError } from '../../src/core/errors.js';

/**
 * The item iterator against a scripted list: which pages were requested, and when, is exactly
 * what a caller pays for in requests and rate budget.
 */
function scriptedList(
  pages: number[][],
  failAt?: number,
  nextCursor = (index: number) => (index + 1 < pages.length ? String(index + 1) : null),
) {
  const requested: Array<string | undefined> = [];
  const limits: Array<number | undefined> = [];
  const fetchPage = (cursor: string | undefined, limit?: number) => {
    requested.push(cursor);
    limits.push(limit);
    const index = cursor === undefined ? 0 : Number(cursor);
    const result = (async () => {
      await Promise.resolve();
      if (index === failAt) throw new Error(`page ${index} failed`);
      const data: PageData<number> = { items: pages[index] ?? [], next_cursor: nextCursor(index) };
      return {
        data,
        response: { status: 200, headers: new Headers(), requestId: `req_${index}`, rateLimit: undefined },
      };
    })();
    return new APIPromise(result);
  };
  return {
    requested,
    limits,
    list: (prefetch = false, itemWalkLimit?: number) => new PagePromise<number>({ fetchPage, prefetch, itemWalkLimit }),
  };
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

describe('a list is a real Promise of its first page', () => {
  it('is a Promise: then, catch, finally, and Promise.resolve() adopts it', async () => {
    const { list, requested } = scriptedList([[1, 2], [3]]);
    const pending = list();
    expect(pending).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(pending)).toBe('[object PagePromise]');
    let settled = false;
    const page = await pending.finally(() => (settled = true));
    expect(settled).toBe(true);
    expect(page.items).toEqual([1, 2]);
    expect((await Promise.resolve(pending)).items).toEqual([1, 2]);
    expect(requested).toEqual([undefined]);
  });

  it('sends nothing until awaited, and one request however often it is read', async () => {
    const { list, requested } = scriptedList([[1]]);
    const pending = list();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(requested).toEqual([]);
    await pending;
    await pending.then((p) => p.items);
    await pending.withResponse();
    expect(requested).toEqual([undefined]);
  });

  it('withResponse() gives the first page and its response', async () => {
    const { list } = scriptedList([[1], [2]]);
    const { data, response } = await list().withResponse();
    expect(data.items).toEqual([1]);
    expect(response).toBe(data.response);
    expect(response.requestId).toBe('req_0');
  });

  it('rejects through catch() with the first page failure', async () => {
    const { list } = scriptedList([[1]], 0);
    await expect(list().catch((error: unknown) => (error as Error).message)).resolves.toBe('page 0 failed');
  });

  it('a walk over items alone never leaves the promise itself rejected and unhandled', async () => {
    const { list } = scriptedList([[1]], 0);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(
        (async () => {
          for await (const _ of list()) void _;
        })(),
      ).rejects.toThrow('page 0 failed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});

describe('walk limits and ends', () => {
  it('a walk over items asks for the largest page unless the call set limit; awaiting and pages() keep the call’s own', async () => {
    const walk = scriptedList([[1], [2]]);
    for await (const _ of walk.list(false, 200)) void _;
    expect(walk.limits).toEqual([200, 200]);

    const awaited = scriptedList([[1], [2]]);
    const first = await awaited.list(false, 200);
    await first.getNextPage();
    for await (const _ of awaited.list(false, 200).pages()) void _;
    expect(awaited.limits).toEqual([undefined, undefined, undefined, undefined]);

    const callerSet = scriptedList([[1], [2]]);
    for await (const _ of callerSet.list(false, undefined)) void _;
    expect(callerSet.limits).toEqual([undefined, undefined]);
  });

  it('getNextPage() past the last page is a ValidationError (a PartnerError) and sends nothing', async () => {
    const { list, requested } = scriptedList([[1]]);
    const last = await list();
    const error = await last.getNextPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(PartnerError);
    expect(error).toMatchObject({ code: 'validation_error', field: 'cursor' });
    expect((error as Error).message).toMatch(/hasNextPage\(\)/);
    expect(requested).toEqual([undefined]);
  });

  it('a next_cursor already followed ends the walk with UnexpectedResponseError instead of looping', async () => {
    // Page 2 points back to page 1.
    const { list, requested } = scriptedList([[1], [2], [3]], undefined, (index) =>
      index === 2 ? '1' : String(index + 1),
    );
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of list()) seen.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).requestId).toBe('req_2');
    expect((error as Error).message).toMatch(/"1".*already followed/);
    expect(seen).toEqual([1, 2]);
    expect(requested).toEqual([undefined, '1', '2']);
  });

  it('a next_cursor equal to the cursor the walk started from is caught too', async () => {
    const { requested } = scriptedList([[1]]);
    const fetchPage = (cursor: string | undefined) => {
      requested.push(cursor);
      return new APIPromise(
        Promise.resolve({
          data: { items: [1], next_cursor: 'same' },
          response: { status: 200, headers: new Headers(), requestId: 'r', rateLimit: undefined },
        }),
      );
    };
    const pages = new PagePromise<number>({ fetchPage, cursor: 'same' }).pages();
    await expect(pages.next()).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(requested).toEqual(['same']);
  });
});
