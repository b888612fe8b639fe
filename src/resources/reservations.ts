import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import type {
  AcknowledgedKind,
  LocationReservationsQuery,
  Reservation,
  ReservationsQuery,
} from '../schemas/reservations.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

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
    return this.paginate(OPERATIONS['reservations.list'], {}, query, options);
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
  listForLocation(
    partnerLocationId: string,
    query?: LocationReservationsQuery,
    options?: RequestOptions,
  ): PagePromise<Reservation> {
    return this.paginate(
      OPERATIONS['reservations.listForLocation'],
      { partner_location_id: partnerLocationId },
      query,
      options,
    );
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
    return this.call(
      OPERATIONS['reservations.acknowledge'],
      { params: { reservation_id: reservationId }, body: { acknowledged_kind: kind } },
      options,
    );
  }
}
