import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import type { PriceQuote, QuoteQuery } from '../schemas/pricing.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

/** Prices, before a store is enrolled. */
export class Pricing extends Resource {
  /**
   * The finished price for a merchant's choices, surcharge included.
   *
   * @example
   * ```ts
   * const q = await client.pricing.quote({ plan: 'growth', videos_per_month: 8, country: 'US' });
   * console.log(q.total_cents / 100, q.currency);
   * ```
   */
  quote(query: QuoteQuery, options?: RequestOptions): APIPromise<PriceQuote> {
    return this.call(OPERATIONS['pricing.quote'], { query }, options);
  }
}
