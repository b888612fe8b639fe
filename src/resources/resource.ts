import type * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { captureCallSite } from '../core/call-site.js';
import type { CallInput, Operation } from '../core/operation.js';
import { PagePromise, type PageData } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import type { Transport } from '../core/transport.js';
import { MAX_PAGE_SIZE, listPage } from '../schemas/common.js';
import type { Schema } from '../schemas/fields.js';

export interface ResourceContext {
  transport: Transport;
  prefetchPages: boolean;
}

/** The schema of a page of `item`s; call once per list, at module level. */
export function pageOf<Item>(item: Schema<Item>): z.ZodMiniType<PageData<Item>> {
  return listPage(item) as unknown as z.ZodMiniType<PageData<Item>>;
}

/** Shared plumbing of the namespaces; each method is one line naming its row of `OPERATIONS`. */
export abstract class Resource {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** One call of `operation`; input it refuses rejects the returned promise with nothing sent. */
  protected call<T>(operation: Operation<T>, input: CallInput, options: RequestOptions | undefined): APIPromise<T> {
    return this.#context.transport.call(operation, input, options);
  }

  /**
   * A paged GET. `query` is checked with each page's request; its `cursor` (if any) is where every
   * walk starts, so a saved `nextCursor` resumes it. A `for await` over items asks for the largest
   * page unless the caller set `limit`.
   */
  protected paginate<Item, Q extends { cursor?: string | undefined; limit?: number | undefined }>(
    operation: Operation<PageData<Item>>,
    params: Record<string, string>,
    query: Q | undefined,
    options: RequestOptions | undefined,
  ): PagePromise<Item> {
    // Every page's request shows where the list was asked for (pages after the first are sent
    // from inside the walk), and the stack is captured once per list, not once per page.
    const site = captureCallSite();
    return new PagePromise<Item>({
      fetchPage: (cursor, limit) =>
        this.#context.transport.call(operation, { params, query: query ?? {}, page: { cursor, limit } }, options, site),
      cursor: query?.cursor,
      itemWalkLimit: query?.limit === undefined ? MAX_PAGE_SIZE : undefined,
      prefetch: this.#context.prefetchPages,
    });
  }
}
