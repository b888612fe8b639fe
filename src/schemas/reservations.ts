import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';
import { calendarDate, openEnum, pageQuery } from './common.js';
import { locationId } from './locations.js';

export const RESERVATION_STATUSES = ['pending', 'confirmed', 'rejected', 'cancelled', 'completed', 'no_show'] as const;
export const reservationStatus = openEnum(RESERVATION_STATUSES);
export type ReservationStatus = z.infer<typeof reservationStatus>;

export const ACKNOWLEDGED_KINDS = ['forwarded_to_manager', 'acknowledged_self'] as const;
export const acknowledgedKind = z.enum(ACKNOWLEDGED_KINDS, 'must be "forwarded_to_manager" or "acknowledged_self"');
export type AcknowledgedKind = z.infer<typeof acknowledgedKind>;

export const reservationCreator = looseObject({
  handle: z.string(),
  platforms: z.array(z.string()),
  follower_count: z.number(),
});

/** A creator's booking at a store. `visit_at` carries the store's UTC offset; null until confirmed. */
export const reservation = looseObject({
  reservation_id: z.string(),
  partner_location_id: z.string(),
  status: reservationStatus,
  visit_at: z.nullable(z.string()),
  time_zone: z.string(),
  party_size: z.number(),
  creator: reservationCreator,
  acknowledged_kind: z.nullable(openEnum(ACKNOWLEDGED_KINDS)),
  created_at: z.string(),
});
export type Reservation = z.infer<typeof reservation>;

const statusFilter = z.enum(RESERVATION_STATUSES, `must be one of ${RESERVATION_STATUSES.join(', ')}`);

/** Filters for one store's bookings. */
export const locationReservationsQuery = z.strictObject({ ...pageQuery });
export type LocationReservationsQuery = z.infer<typeof locationReservationsQuery>;

/** Filters for `GET /reservations` as a caller writes them; `status` may be one status or several. */
export const reservationsQuery = z.strictObject({
  ...pageQuery,
  status: z.optional(z.union([statusFilter, z.array(statusFilter)])),
  acknowledged: z.optional(z.boolean()),
  from: z.optional(calendarDate),
  to: z.optional(calendarDate),
  partner_location_id: z.optional(locationId),
});
export type ReservationsQuery = z.infer<typeof reservationsQuery>;

export const acknowledgeBody = z.strictObject({ acknowledged_kind: acknowledgedKind });
export type AcknowledgeBody = z.infer<typeof acknowledgeBody>;
