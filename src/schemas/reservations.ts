import * as z from 'zod/mini';
import { calendarDate, openEnum, pageQuery } from './common.js';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';
import { locationId } from './locations.js';

export const RESERVATION_STATUSES = ['pending', 'confirmed', 'rejected', 'cancelled', 'completed', 'no_show'] as const;
export const reservationStatus = openEnum(RESERVATION_STATUSES);
/**
 * A booking's state: `pending`, `confirmed`, `rejected`, `cancelled`, `completed` or `no_show` (a value this version does not know is kept as a string).
 *
 * @useDeclaredType
 */
export type ReservationStatus = z.infer<typeof reservationStatus>;

export const ACKNOWLEDGED_KINDS = ['forwarded_to_manager', 'acknowledged_self'] as const;
export const acknowledgedKind = z.enum(ACKNOWLEDGED_KINDS, 'must be "forwarded_to_manager" or "acknowledged_self"');
/**
 * How a booking was acknowledged: `forwarded_to_manager` or `acknowledged_self`.
 *
 * @useDeclaredType
 */
export type AcknowledgedKind = z.infer<typeof acknowledgedKind>;

const reservationCreatorFields = {
  /** The creator's handle. */
  handle: z.string(),
  /** Platforms the creator posts on, e.g. `instagram`. */
  platforms: z.array(z.string()),
  /** The creator's followers. */
  follower_count: z.number(),
};
/** The creator who booked. Never any contact details. */
export interface ReservationCreator extends ResponseFields<typeof reservationCreatorFields> {}
export const reservationCreator: Schema<ReservationCreator> = z.looseObject(reservationCreatorFields);

const reservationFields = {
  /** The booking's id. */
  reservation_id: z.string(),
  /** The store booked. */
  partner_location_id: z.string(),
  /** `pending`, `confirmed`, `rejected`, `cancelled`, `completed` or `no_show`. */
  status: reservationStatus,
  /** The visit, ISO 8601 with the store's UTC offset; null until confirmed. */
  visit_at: z.nullable(z.string()),
  /** The store's IANA time zone. */
  time_zone: z.string(),
  /** People coming, the creator included. */
  party_size: z.number(),
  /** Who booked. */
  creator: reservationCreator,
  /** How the merchant acknowledged it: `forwarded_to_manager` or `acknowledged_self`; null until acknowledged. */
  acknowledged_kind: z.nullable(openEnum(ACKNOWLEDGED_KINDS)),
  /** When the booking was made, ISO 8601 UTC. */
  created_at: z.string(),
};
/** A creator's booking at a store. */
export interface Reservation extends ResponseFields<typeof reservationFields> {}
export const reservation: Schema<Reservation> = z.looseObject(reservationFields);

const statusFilter = z.enum(RESERVATION_STATUSES, `must be one of ${RESERVATION_STATUSES.join(', ')}`);

/** Filters for one store's bookings. */
export interface LocationReservationsQuery extends RequestFields<typeof pageQuery> {}
export const locationReservationsQuery: InputSchema<LocationReservationsQuery> = z.strictObject({ ...pageQuery });

const reservationsQueryFields = {
  ...pageQuery,
  /** Only bookings in this status, or in any of these. */
  status: z.optional(
    // An empty list would go out as `status=`, which asks for no status at all: leave status out for every status.
    z.union([
      statusFilter,
      z.array(statusFilter).check(z.minLength(1, 'must name at least one status (leave status out for every status)')),
    ]),
  ),
  /** Only acknowledged (`true`) or unacknowledged (`false`) bookings. */
  acknowledged: z.optional(z.boolean()),
  /** Visits on or after this local date, `YYYY-MM-DD`. */
  from: z.optional(calendarDate),
  /** Visits on or before this local date, `YYYY-MM-DD`. */
  to: z.optional(calendarDate),
  /** Only this store's bookings. */
  partner_location_id: z.optional(locationId),
};
/** Filters for `reservations.list()` as a caller writes them. */
export interface ReservationsQuery extends RequestFields<typeof reservationsQueryFields> {}
export const reservationsQuery: InputSchema<ReservationsQuery> = z.strictObject(reservationsQueryFields);

const acknowledgeFields = {
  /** `forwarded_to_manager` or `acknowledged_self`. */
  acknowledged_kind: acknowledgedKind,
};
/** Body of `reservations.acknowledge()`. */
export interface AcknowledgeBody extends RequestFields<typeof acknowledgeFields> {}
export const acknowledgeBody: InputSchema<AcknowledgeBody> = z.strictObject(acknowledgeFields);
