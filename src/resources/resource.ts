import type * as z from 'zod/mini';
import { APIPromise } from '../core/api-promise.js';
import { captureCallSite, type CallSite } from '../core/call-site.js';
import { PartnerApiError } from '../core/errors.js';
import { parseInput } from '../core/input.js';
import { PagePromise, type PageData } from '../core/pagination.js';
import type { RequestOptions, RequestSpec } from '../core/request.js';
import type { Transport } from '../core/transport.js';
import { MAX_PAGE_SIZE, listPage } from '../schemas/common.js';
import type { Schema } from '../schemas/fields.js';
import { checkPathParams } from './path-params.js';

export interface ResourceContext {
  transport: Transport;
  prefetchPages: boolean;
}

/** Query values as they go on the wire: a list becomes comma-separated, booleans `true`/`false`. */
export type WireQuery = Record<string, string | number | boolean | undefined>;

/**
 * What to add to an error's message, by its code, to say what to do in terms of this SDK
 * (`client.locations.update()`) rather than the HTTP the service speaks of.
 */
export type ErrorAdvice = Partial<Record<string, (error: PartnerApiError) => string>>;

/** A paged list: its page schema (built once per list, not per call), route and query. */
export interface ListSpec<Item, Q> {
  operation: string;
  route: string;
  page: z.ZodMiniType<PageData<Item>>;
  query: z.ZodMiniType<Q>;
  toWire?: (query: Q) => WireQuery;
}

/** The schema of a page of `item`s; call once per list, at module level. */
export function pageOf<Item>(item: Schema<Item>): z.ZodMiniType<PageData<Item>> {
  return listPage(item) as unknown as z.ZodMiniType<PageData<Item>>;
}

/** Shared plumbing of the namespaces; each method is a line or two naming route, schemas and retry safety. */
export abstract class Resource {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * One call. `build` runs inside the returned promise, after the path ids are checked, so refused
   * input rejects it with nothing sent.
   */
  protected request<T>(options: RequestOptions | undefined, build: () => RequestSpec<Schema<T>>, advice?: ErrorAdvice, site?: CallSite): APIPromise<T> {
    const call = this.#context.transport.request(
      options,
      () => {
        const spec = build();
        checkPathParams(spec.params);
        return spec;
      },
      site,
    ) as APIPromise<T>;
    if (!advice) return call;
    return new APIPromise(
      call.withResponse().catch((error: unknown) => {
        if (error instanceof PartnerApiError) {
          const extra = advice[error.code]?.(error);
          if (extra) error.message = `${error.message} ${extra}`;
        }
        throw error;
      }),
    );
  }

  /**
   * A paged GET. `query` is checked before the first request; its `cursor` (if any) is where every
   * walk starts, so a saved `nextCursor` resumes it. A `for await` over items asks for the largest
   * page unless the caller set `limit`.
   */
  protected paginate<Item, Q extends { cursor?: string | undefined; limit?: number | undefined }>(
    list: ListSpec<Item, Q>,
    params: Record<string, string>,
    query: Q | undefined,
    options: RequestOptions | undefined,
  ): PagePromise<Item> {
    const toWire = list.toWire ?? ((q: Q) => q as WireQuery);
    // Every page's request shows where the list was asked for (pages after the first are sent
    // from inside the walk), and the stack is captured once per list, not once per page.
    const site = captureCallSite();
    // Checked once, on the first request, and kept for the walk's other pages.
    let wire: WireQuery | undefined;
    return new PagePromise<Item>({
      fetchPage: (cursor, limit) =>
        this.request(
          options,
          () => {
            wire ??= toWire(parseInput(list.query, query ?? {}));
            return {
              operation: list.operation,
              method: 'GET',
              route: list.route,
              params,
              query: { ...wire, ...(limit === undefined ? {} : { limit }), cursor },
              response: list.page,
              retry: 'safe',
            };
          },
          undefined,
          site,
        ),
      cursor: query?.cursor,
      itemWalkLimit: query?.limit === undefined ? MAX_PAGE_SIZE : undefined,
      prefetch: this.#context.prefetchPages,
    });
  }
}
