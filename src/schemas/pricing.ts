import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';
import { countryCode } from './common.js';

export const quoteQuery = z.strictObject({
  plan: z.string().check(z.minLength(1, 'must not be empty')),
  videos_per_month: z.int().check(z.gte(1, 'must be between 1 and 100'), z.lte(100, 'must be between 1 and 100')),
  country: z.optional(countryCode),
});
export type QuoteQuery = z.infer<typeof quoteQuery>;

export const quote = looseObject({
  plan: z.string(),
  videos_per_month: z.number(),
  currency: z.string(),
  price_per_video_cents: z.number(),
  surcharge_per_video_cents: z.number(),
  total_cents: z.number(),
});
export type Quote = z.infer<typeof quote>;
