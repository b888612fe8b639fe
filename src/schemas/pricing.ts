import * as z from 'zod/mini';
import { countryCode } from './common.js';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';

const quoteQueryFields = {
  /** The plan's name, e.g. `growth`. */
  plan: z.string().check(z.minLength(1, 'must not be empty')),
  /** Videos a month, 1..100. */
  videos_per_month: z.int().check(z.gte(1, 'must be between 1 and 100'), z.lte(100, 'must be between 1 and 100')),
  /** The store's country, ISO 3166-1 alpha-2 (prices differ by country). */
  country: z.optional(countryCode),
};
/** Parameters of `pricing.quote()`. */
export interface QuoteQuery extends RequestFields<typeof quoteQueryFields> {}
export const quoteQuery: InputSchema<QuoteQuery> = z.strictObject(quoteQueryFields);

const priceQuoteFields = {
  /** The plan quoted. */
  plan: z.string(),
  /** Videos a month quoted. */
  videos_per_month: z.number(),
  /** ISO 4217 currency of every amount. */
  currency: z.string(),
  /** The service's price per video, minor units. */
  price_per_video_cents: z.number(),
  /** The partner's surcharge per video, minor units. */
  surcharge_per_video_cents: z.number(),
  /** The month's total, surcharge included, minor units. */
  total_cents: z.number(),
};
/** A finished price for a plan, surcharge included. */
export interface PriceQuote extends ResponseFields<typeof priceQuoteFields> {}
export const priceQuote: Schema<PriceQuote> = z.looseObject(priceQuoteFields);
