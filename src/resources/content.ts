import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { listQuery, type ListQuery } from '../schemas/common.js';
import { video, type Video } from '../schemas/content.js';
import { Resource, pageOf, type ListSpec } from './resource.js';

const LIST: ListSpec<Video, ListQuery> = {
  operation: 'content.list',
  route: '/locations/{partner_location_id}/content',
  page: pageOf(video),
  query: listQuery,
};

/** Videos creators published for a store. */
export class Content extends Resource {
  /**
   * A store's published videos, every page. View and like counts are not returned yet.
   *
   * @example
   * ```ts
   * for await (const v of client.content.list('store-42')) console.log(v.platform, v.url, v.posted_at);
   * ```
   */
  list(partnerLocationId: string, query?: ListQuery, options?: RequestOptions): PagePromise<Video> {
    return this.paginate(LIST, { partner_location_id: partnerLocationId }, query, options);
  }
}
