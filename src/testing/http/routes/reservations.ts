import { acknowledge, findBooking } from '../../domain/bookings.js';
import { findStore } from '../../domain/stores.js';
import type { Booking } from '../../model/model.js';
import { formatZoned } from '../../model/zoned-time.js';
import { pageOf } from '../paging.js';
import { noQuery, readQuery } from '../query.js';
import { bookingRecord } from '../records.js';
import { readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { acknowledgeBody } from '../validation/other-bodies.js';
import { calendarDate, locationId, PAGE, statusList, trueOrFalse } from '../validation/query-rules.js';
import { pageRequest } from './list-params.js';

export const reservationRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/reservations',
    handler: ({ account, query }) => {
      const q = readQuery(query, {
        ...PAGE,
        status: statusList,
        acknowledged: trueOrFalse,
        from: calendarDate,
        to: calendarDate,
        partner_location_id: locationId,
      });
      const matches = (b: Booking): boolean => {
        if (q.status && !q.status.has(b.status)) return false;
        if (q.acknowledged !== undefined && (b.acknowledgedKind !== null) !== q.acknowledged) return false;
        if (q.from !== undefined || q.to !== undefined) {
          // Against the visit's local date; a booking without a visit time never matches a date filter.
          if (b.visitAt === null) return false;
          const day = formatZoned(b.visitAt, b.timeZone).slice(0, 10);
          if (q.from !== undefined && day < q.from) return false;
          if (q.to !== undefined && day > q.to) return false;
        }
        return true;
      };
      const source =
        q.partner_location_id === undefined
          ? account.bookingList
          : (account.stores.get(q.partner_location_id)?.bookings ?? []);
      return { status: 200, body: pageOf(source, pageRequest('reservations', query, q), bookingRecord, matches) };
    },
  },
  {
    method: 'GET',
    pattern: '/locations/:id/reservations',
    handler: ({ account, params, query }) => {
      const store = findStore(account, params.id ?? '');
      const q = readQuery(query, PAGE);
      return {
        status: 200,
        body: pageOf(store.bookings, pageRequest(`locations/${store.id}/reservations`, query, q), bookingRecord),
      };
    },
  },
  {
    method: 'POST',
    pattern: '/reservations/:id/acknowledge',
    handler: async ({ world, account, params, query, request }) => {
      noQuery(query);
      const booking = findBooking(account, params.id ?? '');
      const body = validBody(acknowledgeBody, await readJson(request));
      acknowledge(world, booking, body.acknowledged_kind);
      return { status: 200, body: bookingRecord(booking) };
    },
  },
];
