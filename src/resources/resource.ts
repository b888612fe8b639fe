import type * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { PagePromise, type PageData } from '../core/pagination.js';
import type { RequestOptions, RequestSpec } from '../core/request.js';
import type { Transport } from '../core/transport.js';
import { parseInput } from '../core/input.js';
import { listPage } from '../schemas/common.js';

export interface ResourceContext {
  transport: Transport;
  prefetchPages: boolean;
}

/** Query values as they go on the wire: a list becomes comma-separated, booleans `true`/`false`. */
export type WireQuery = Record<string, string | number | boolean | undefined>;

/** Shared plumbing of the namespaces; each method is a line or two naming route, schemas and retry safety. */
export abstract class Resource {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  protected request<S extends z.ZodMiniType>(options: RequestOptions | undefined, build: () => RequestSpec<S>): APIPromise<z.infer<S>> {
    return this.#context.transport.request(options, build);
  }

  /**
   * A paged GET. `query` is checked against `querySchema` before the first request; its `cursor`
   * (if any) is where the walk starts, so a saved `nextCursor` resumes it.
   */
  protected paginate<Item extends z.ZodMiniType, Q extends { cursor?: string | undefined }>(
    operation: string,
    route: string,
    params: Record<string, string>,
    item: Item,
    querySchema: z.ZodMiniType<Q>,
    query: Q | undefined,
    options: RequestOptions | undefined,
    toWire: (query: Q) => WireQuery = (q) => q as WireQuery,
  ): PagePromise<z.infer<Item>> {
    const page = listPage(item);
    const startCursor = query?.cursor;
    return new PagePromise<z.infer<Item>>(
      (cursor) =>
        this.request(options, () => {
          const checked = parseInput(querySchema, query ?? {});
          return { operation, method: 'GET', route, params, query: { ...toWire(checked), cursor }, response: page, retry: 'safe' };
        }) as APIPromise<PageData<z.infer<Item>>>,
      { cursor: startCursor, prefetch: this.#context.prefetchPages },
    );
  }
}
