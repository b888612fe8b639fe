import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';
import { calendarMonth, pageQuery } from './common.js';

export const summary = looseObject({
  generated_at: z.string(),
  locations: looseObject({
    total: z.number(),
    active: z.number(),
    paused: z.number(),
    terminated: z.number(),
    hours_missing: z.number(),
  }),
  reservations: looseObject({
    pending: z.number(),
    confirmed: z.number(),
    completed: z.number(),
    no_show: z.number(),
    unacknowledged: z.number(),
  }),
  videos_published: z.number(),
});
export type Summary = z.infer<typeof summary>;

export const billingRow = looseObject({
  partner_location_id: z.string(),
  videos_published: z.number(),
  completed_visits: z.number(),
  no_shows: z.number(),
});
export type BillingRow = z.infer<typeof billingRow>;

export const billingQuery = z.strictObject({ month: calendarMonth, ...pageQuery });
export type BillingQuery = z.infer<typeof billingQuery>;
