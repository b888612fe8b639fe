import { parseInput } from '../core/input.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import {
  acknowledgeBody,
  locationReservationsQuery,
  reservation,
  reservationsQuery,
  type AcknowledgedKind,
  type LocationReservationsQuery,
  type Reservation,
  type ReservationsQuery,
} from '../schemas/reservations.js';
import { Resource, pageOf, type ListSpec } from './resource.js';

const page = pageOf(reservation);
const LIST: ListSpec<Reservation, ReservationsQuery> = {
  operation: 'reservations.list',
  route: '/reservations',
  page,
  query: reservationsQuery,
  toWire: (q) => ({ ...q, status: Array.isArray(q.status) ? q.status.join(',') : q.status }),
};
const LIST_FOR_LOCATION: ListSpec<Reservation, LocationReservationsQuery> = {
  operation: 'reservations.listForLocation',
  route: '/locations/{partner_location_id}/reservations',
  page,
  query: locationReservationsQuery,
};

/** Creator bookings at the partner's stores. */
export class Reservations extends Resource {
  /**
   * Bookings across all stores, every page. Filter by `status` (one or several), `acknowledged`,
   * the visit's local date (`from`, `to` as `YYYY-MM-DD`, inclusive) and `partner_location_id`.
   * Pass a saved `cursor` to resume.
   *
   * @example
   * ```ts
   * for await (const booking of client.reservations.list({ status: ['confirmed'], acknowledged: false })) {
   *   await client.reservations.acknowledge(booking.reservation_id, 'acknowledged_self');
   * }
   * ```
   */
  list(query?: ReservationsQuery, options?: RequestOptions): PagePromise<Reservation> {
    return this.paginate(LIST, {}, query, options);
  }

  /**
   * One store's bookings, every page.
   *
   * @example
   * ```ts
   * const page = await client.reservations.listForLocation('store-42', { limit: 200 });
   * console.log(page.items.length, page.nextCursor);
   * ```
   */
  listForLocation(partnerLocationId: string, query?: LocationReservationsQuery, options?: RequestOptions): PagePromise<Reservation> {
    return this.paginate(LIST_FOR_LOCATION, { partner_location_id: partnerLocationId }, query, options);
  }

  /**
   * Record that the merchant saw a booking. Repeatable; the latest kind stands.
   *
   * @example
   * ```ts
   * await client.reservations.acknowledge('res_123', 'forwarded_to_manager');
   * ```
   */
  acknowledge(reservationId: string, kind: AcknowledgedKind, options?: RequestOptions): APIPromise<Reservation> {
    return this.request(options, () => ({
      operation: 'reservations.acknowledge',
      method: 'POST',
      route: '/reservations/{reservation_id}/acknowledge',
      params: { reservation_id: reservationId },
      body: parseInput(acknowledgeBody, { acknowledged_kind: kind }),
      response: reservation,
      retry: 'safe',
    }));
  }
}
