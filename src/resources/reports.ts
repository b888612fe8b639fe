import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import type { ListQuery } from '../schemas/common.js';
import type { BillingRow, Summary } from '../schemas/reports.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

/** Account-wide summaries and monthly billing counts. */
export class Reports extends Resource {
  /**
   * All the partner's stores in one call: store counts by state, booking counts, videos published.
   *
   * @example
   * ```ts
   * const s = await client.reports.summary();
   * console.log(s.generated_at, s.locations.active, s.reservations.unacknowledged);
   * ```
   */
  summary(options?: RequestOptions): APIPromise<Summary> {
    return this.call(OPERATIONS['reports.summary'], {}, options);
  }

  /**
   * Per-store counts for a month (`YYYY-MM`): videos published, completed visits, no-shows. Paged.
   *
   * @example
   * ```ts
   * for await (const row of client.reports.billingMonthly('2026-12')) {
   *   console.log(row.partner_location_id, row.videos_published, row.completed_visits, row.no_shows);
   * }
   * ```
   */
  billingMonthly(month: string, query?: ListQuery, options?: RequestOptions): PagePromise<BillingRow> {
    return this.paginate(OPERATIONS['reports.billingMonthly'], {}, { ...query, month }, options);
  }
}
