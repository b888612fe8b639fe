import type { APIPromise, WithResponse } from './api-promise.js';
import { UnexpectedResponseError } from './errors.js';
import { refusedBeforeSending } from './refusal.js';
import type { ResponseMeta } from './response-meta.js';

/** The wire form of a page: `{ items, next_cursor }`. */
export interface PageData<Item> {
  items: Item[];
  next_cursor?: string | null | undefined;
}

/**
 * Fetches the page that starts at `cursor` (the first page when undefined). `limit`, when given,
 * is the page size to ask for instead of the caller's (the item walk asks for the largest page).
 */
export type PageFetcher<Item> = (cursor: string | undefined, limit?: number) => APIPromise<PageData<Item>>;

/** How a list method's walk is set up. */
export interface PageSource<Item> {
  fetchPage: PageFetcher<Item>;
  /** The cursor the caller passed (a saved `nextCursor`), where every walk starts. */
  cursor?: string | undefined;
  /** The page size a `for await` over items asks for; undefined when the caller set `limit`. */
  itemWalkLimit?: number | undefined;
  /** Ask for page n+1 as soon as page n is handed over. */
  prefetch?: boolean;
}

/** One page of a list. Keep `nextCursor` to resume a long walk later with `list({ cursor })`. */
export class Page<Item> {
  /** The items of this page, in the list's order. */
  readonly items: Item[];
  /** Cursor of the page after this one; null on the last page. */
  readonly nextCursor: string | null;
  /**
   * The HTTP response this page came from: `status`, `headers`, `requestId` (quote it to support)
   * and the key's `rateLimit` as this response reported it.
   */
  readonly response: ResponseMeta;
  readonly #fetch: FetchFrom<Item>;

  /** @internal Pages are made by the list methods. */
  constructor(data: PageData<Item>, response: ResponseMeta, fetchNext: FetchFrom<Item>) {
    this.items = data.items;
    // The contract treats null, empty and missing alike: the last page.
    this.nextCursor = data.next_cursor ? data.next_cursor : null;
    this.response = response;
    this.#fetch = fetchNext;
  }

  /** True unless this is the last page. */
  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  /**
   * The next page. On the last page it rejects with a `ValidationError` (field `cursor`) and sends
   * nothing: check `hasNextPage()` first.
   */
  async getNextPage(): Promise<Page<Item>> {
    if (this.nextCursor === null) {
      throw refusedBeforeSending(
        'This is the last page (nextCursor is null): check page.hasNextPage() before page.getNextPage()',
        'cursor',
      );
    }
    return loadPage(this.#fetch, this.nextCursor);
  }
}

type FetchFrom<Item> = (cursor: string | undefined) => APIPromise<PageData<Item>>;

async function loadPage<Item>(fetchPage: FetchFrom<Item>, cursor: string | undefined): Promise<Page<Item>> {
  const { data, response } = await fetchPage(cursor).withResponse();
  return new Page(data, response, fetchPage);
}

/**
 * What every list method returns: a `Promise` of the first page that is also async-iterable over
 * every item of every page (`for await`), with `.withResponse()` and `.pages()`. Only one page is
 * held at a time, so memory stays flat however long the list. Nothing is sent until it is awaited
 * or iterated.
 *
 * Iterating items asks for pages of 200 (the most the service allows) unless you set `limit`:
 * a sync of 10,000 bookings is 50 calls instead of 200 within the key's 600 a minute.
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
export class PagePromise<Item> extends Promise<Page<Item>> implements AsyncIterable<Item> {
  // `then` on a subclass would otherwise build a PagePromise through this constructor.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #source: PageSource<Item>;
  #settle: ((first: Promise<Page<Item>>) => void) | undefined;
  #first: Promise<Page<Item>> | undefined;

  /** @internal Made by the list methods. */
  constructor(source: PageSource<Item>) {
    let resolve!: (page: Page<Item>) => void;
    let reject!: (reason: unknown) => void;
    super((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#source = source;
    this.#settle = (first) => first.then(resolve, reject);
  }

  /** The first page with the caller's query, requested once however often it is read. */
  #firstPage(): Promise<Page<Item>> {
    const { fetchPage, cursor } = this.#source;
    this.#first ??= loadPage((c) => fetchPage(c), cursor);
    return this.#first;
  }

  /** Resolves to the first page (`const page = await client.reservations.list()`); sends its request on first use. */
  override then<R1 = Page<Item>, R2 = never>(
    onfulfilled?: ((value: Page<Item>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // Lazy: this promise settles from the first page once something awaits it (a walk with
    // `for await` alone never settles it, so its failure is reported once, by the walk).
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(this.#firstPage());
    return super.then(onfulfilled, onrejected);
  }

  /** The first page together with the HTTP response it came from (the same as `page.response`). */
  withResponse(): Promise<WithResponse<Page<Item>>> {
    return this.#firstPage().then((page) => ({ data: page, response: page.response }));
  }

  /**
   * Every page in turn, starting with the first page as awaited. With prefetch on, page n+1 is
   * requested as soon as page n is handed over, so the wait for it overlaps the caller's work.
   * A page whose `next_cursor` was already seen in this walk ends it with an
   * `UnexpectedResponseError` instead of looping forever.
   */
  pages(): AsyncGenerator<Page<Item>, void, undefined> {
    return this.#walk(() => this.#firstPage());
  }

  async *#walk(first: () => Promise<Page<Item>>): AsyncGenerator<Page<Item>, void, undefined> {
    const seen = new Set<string>();
    if (this.#source.cursor !== undefined) seen.add(this.#source.cursor);
    let page = await first();
    for (;;) {
      if (page.nextCursor !== null) {
        if (seen.has(page.nextCursor)) throw repeatedCursor(page);
        seen.add(page.nextCursor);
      }
      const upcoming = this.#source.prefetch && page.hasNextPage() ? page.getNextPage() : undefined;
      // If the caller stops early, a prefetched page's failure is nobody's business.
      upcoming?.catch(() => undefined);
      yield page;
      if (!page.hasNextPage()) return;
      page = await (upcoming ?? page.getNextPage());
    }
  }

  /**
   * Every item of every page: `for await (const item of client.reservations.list())`. Asks for
   * pages of 200 unless the call set `limit`. One page is held at a time.
   */
  [Symbol.asyncIterator](): AsyncIterableIterator<Item> {
    const { fetchPage, cursor, itemWalkLimit } = this.#source;
    const first =
      itemWalkLimit === undefined
        ? () => this.#firstPage()
        : () => loadPage((c) => fetchPage(c, itemWalkLimit), cursor);
    return new ItemIterator(this.#walk(first));
  }

  override get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}

function repeatedCursor(page: Page<unknown>): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `The service returned next_cursor ${JSON.stringify(page.nextCursor)}, which this walk already followed; ` +
      'following it again would loop forever, so the walk stops here. Resume from a saved cursor later, and report it with the request id.',
    { status: page.response.status, requestId: page.response.requestId },
  );
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * Items of `pages()`, handed out without a generator per item: `yield*` through two async
 * generators cost promise plumbing per item (docs/performance.md has the figure).
 * Pages still come from the page walk, so the first request, prefetch, errors and an early `break`
 * behave exactly as there; only the items of the page in hand skip the generator.
 */
class ItemIterator<Item> implements AsyncIterableIterator<Item> {
  readonly #pages: AsyncGenerator<Page<Item>, void, undefined>;
  #items: Item[] = [];
  #index = 0;

  constructor(pages: AsyncGenerator<Page<Item>, void, undefined>) {
    this.#pages = pages;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Item, undefined>> {
    if (this.#index < this.#items.length)
      return Promise.resolve({ value: this.#items[this.#index++] as Item, done: false });
    return this.#nextPage();
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    this.#items = [];
    await this.#pages.return();
    return DONE;
  }

  async #nextPage(): Promise<IteratorResult<Item, undefined>> {
    for (;;) {
      const next = await this.#pages.next();
      if (next.done) return DONE;
      this.#items = next.value.items;
      this.#index = 0;
      if (this.#items.length > 0) return { value: this.#items[this.#index++] as Item, done: false };
    }
  }
}
