import * as z from 'zod/mini';
import { calendarMonth, pageQuery } from './common.js';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';

const locationCountsFields = {
  /** Every enrolled store. */
  total: z.number(),
  /** Stores that are active. */
  active: z.number(),
  /** Stores that are paused. */
  paused: z.number(),
  /** Stores that are terminated. */
  terminated: z.number(),
  /** Stores on hold because their opening hours are missing. */
  hours_missing: z.number(),
};
/** Store counts by state. */
export interface LocationCounts extends ResponseFields<typeof locationCountsFields> {}

const reservationCountsFields = {
  /** Bookings awaiting confirmation. */
  pending: z.number(),
  /** Bookings confirmed. */
  confirmed: z.number(),
  /** Visits completed. */
  completed: z.number(),
  /** Visits the creator missed. */
  no_show: z.number(),
  /** Bookings the merchant has not acknowledged yet. */
  unacknowledged: z.number(),
};
/** Booking counts by state. */
export interface ReservationCounts extends ResponseFields<typeof reservationCountsFields> {}

const summaryFields = {
  /** When the figures were taken, ISO 8601 UTC. */
  generated_at: z.string(),
  /** Store counts by state. */
  locations: z.looseObject(locationCountsFields) as Schema<LocationCounts>,
  /** Booking counts by state. */
  reservations: z.looseObject(reservationCountsFields) as Schema<ReservationCounts>,
  /** Videos published across every store. */
  videos_published: z.number(),
};
/** Account-wide counts: stores by state, bookings by state, videos published. */
export interface Summary extends ResponseFields<typeof summaryFields> {}
export const summary: Schema<Summary> = z.looseObject(summaryFields);

const billingRowFields = {
  /** The store. */
  partner_location_id: z.string(),
  /** Videos published in the month. */
  videos_published: z.number(),
  /** Visits completed in the month. */
  completed_visits: z.number(),
  /** Visits the creator missed in the month. */
  no_shows: z.number(),
};
/** One store's billable counts for a month. */
export interface BillingRow extends ResponseFields<typeof billingRowFields> {}
export const billingRow: Schema<BillingRow> = z.looseObject(billingRowFields);

const billingQueryFields = {
  /** The month, `YYYY-MM`. */
  month: calendarMonth,
  ...pageQuery,
};
export interface BillingQuery extends RequestFields<typeof billingQueryFields> {}
export const billingQuery: InputSchema<BillingQuery> = z.strictObject(billingQueryFields);
