import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import type { ListQuery } from '../schemas/common.js';
import type { Video } from '../schemas/content.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

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
    return this.paginate(OPERATIONS['content.list'], { partner_location_id: partnerLocationId }, query, options);
  }
}
