import type { APIPromise } from './api-promise.js';
import type { ResponseMeta } from './response-meta.js';

/** The wire form of a page: `{ items, next_cursor }`. */
export interface PageData<Item> {
  items: Item[];
  next_cursor?: string | null | undefined;
}

/** Fetches the page that starts at `cursor` (the first page when undefined). */
export type PageFetcher<Item> = (cursor: string | undefined) => APIPromise<PageData<Item>>;

/** One page of a list. Keep `nextCursor` to resume a long walk later with `list({ cursor })`. */
export class Page<Item> {
  /** The items of this page, in the list's order. */
  readonly items: Item[];
  /** Cursor of the page after this one; null on the last page. */
  readonly nextCursor: string | null;
  /** The HTTP response this page came from. */
  readonly response: ResponseMeta;
  readonly #fetch: PageFetcher<Item>;

  /** @internal Pages are made by the list methods. */
  constructor(data: PageData<Item>, response: ResponseMeta, fetchPage: PageFetcher<Item>) {
    this.items = data.items;
    // The contract treats null, empty and missing alike: the last page.
    this.nextCursor = data.next_cursor ? data.next_cursor : null;
    this.response = response;
    this.#fetch = fetchPage;
  }

  /** True unless this is the last page. */
  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  /** The next page; rejects when there is none (check `hasNextPage()` first). */
  async getNextPage(): Promise<Page<Item>> {
    if (this.nextCursor === null) throw new RangeError('This is the last page: check hasNextPage() before getNextPage().');
    return loadPage(this.#fetch, this.nextCursor);
  }
}

async function loadPage<Item>(fetchPage: PageFetcher<Item>, cursor: string | undefined): Promise<Page<Item>> {
  const { data, response } = await fetchPage(cursor).withResponse();
  return new Page(data, response, fetchPage);
}

/**
 * What every list method returns: await it for the first page, or walk every item of every page
 * with `for await`. Only one page is held at a time, so memory stays flat however long the list.
 *
 * @example
 * ```ts
 * for await (const booking of client.reservations.list({ status: ['confirmed'] })) {
 *   console.log(booking.reservation_id, booking.visit_at);
 * }
 * const first = await client.reservations.list({ limit: 200 });
 * if (first.hasNextPage()) saveCheckpoint(first.nextCursor);
 * ```
 */
export class PagePromise<Item> implements PromiseLike<Page<Item>>, AsyncIterable<Item> {
  readonly #fetch: PageFetcher<Item>;
  readonly #startCursor: string | undefined;
  readonly #prefetch: boolean;
  #first: Promise<Page<Item>> | undefined;

  /** @internal Made by the list methods. */
  constructor(fetchPage: PageFetcher<Item>, options: { cursor?: string | undefined; prefetch?: boolean } = {}) {
    this.#fetch = fetchPage;
    this.#startCursor = options.cursor;
    this.#prefetch = options.prefetch ?? false;
  }

  #firstPage(): Promise<Page<Item>> {
    this.#first ??= loadPage(this.#fetch, this.#startCursor);
    return this.#first;
  }

  /** Resolves to the first page (`const page = await client.reservations.list()`). */
  then<R1 = Page<Item>, R2 = never>(
    onfulfilled?: ((value: Page<Item>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Handles a failure of the first page's request: the reason is a `PartnerError`. */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<Item> | R> {
    return this.#firstPage().catch(onrejected);
  }

  /**
   * Every page in turn. With prefetch on, page n+1 is requested as soon as page n is handed
   * over, so the wait for it overlaps the caller's work on page n.
   */
  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page = await this.#firstPage();
    for (;;) {
      const upcoming = this.#prefetch && page.hasNextPage() ? page.getNextPage() : undefined;
      // If the caller stops early, a prefetched page's failure is nobody's business.
      upcoming?.catch(() => undefined);
      yield page;
      if (!page.hasNextPage()) return;
      page = await (upcoming ?? page.getNextPage());
    }
  }

  /** Every item of every page: `for await (const item of client.reservations.list())`. One page is held at a time. */
  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    return new ItemIterator(() => this.#firstPage(), this.#prefetch);
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * Walks items without async generators: `yield*` through two generators cost ~0.3 µs per item
 * in promise plumbing (a fifth of a 200-item page's validation), where this hands out items of a
 * page already in hand as resolved promises. Same behaviour as `pages()` with `yield*`, including
 * prefetch: page n+1 is requested when page n's first item is handed over.
 */
class ItemIterator<Item> implements AsyncIterableIterator<Item> {
  #page: Page<Item> | undefined;
  #loading: Promise<Page<Item>> | undefined;
  /** The first page is requested on the first `next()`, as a generator would. */
  #first: (() => Promise<Page<Item>>) | undefined;
  #upcoming: Promise<Page<Item>> | undefined;
  #index = 0;
  #done = false;
  readonly #prefetch: boolean;

  constructor(first: () => Promise<Page<Item>>, prefetch: boolean) {
    this.#first = first;
    this.#prefetch = prefetch;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Item, undefined>> {
    const page = this.#page;
    if (page !== undefined && this.#index < page.items.length) {
      return Promise.resolve({ value: page.items[this.#index++] as Item, done: false });
    }
    return this.#advance();
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    this.#finish();
    return DONE;
  }

  async #advance(): Promise<IteratorResult<Item, undefined>> {
    for (;;) {
      if (this.#done) return DONE;
      const current = this.#page;
      if (this.#first !== undefined) {
        this.#loading = this.#first();
        this.#first = undefined;
      } else if (current !== undefined) {
        if (!current.hasNextPage()) {
          this.#finish();
          return DONE;
        }
        this.#loading = this.#upcoming ?? current.getNextPage();
        this.#upcoming = undefined;
      }
      let page: Page<Item>;
      try {
        page = await (this.#loading as Promise<Page<Item>>);
      } catch (error) {
        this.#finish();
        throw error;
      }
      if (this.#done) return DONE;
      this.#page = page;
      this.#loading = undefined;
      this.#index = 0;
      if (this.#prefetch && page.hasNextPage()) {
        this.#upcoming = page.getNextPage();
        // If the caller stops early, a prefetched page's failure is nobody's business.
        this.#upcoming.catch(() => undefined);
      }
      if (page.items.length > 0) return { value: page.items[this.#index++] as Item, done: false };
    }
  }

  #finish(): void {
    this.#done = true;
    this.#first = undefined;
    this.#page = undefined;
    this.#loading = undefined;
    this.#upcoming = undefined;
  }
}
