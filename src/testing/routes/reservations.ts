import { acknowledgeBody, locationReservationsQuery, reservationsQuery } from '../../schemas/index.js';
import { notFound } from '../api-error.js';
import { acknowledge } from '../bookings.js';
import type { Booking } from '../model.js';
import { pageOf } from '../paging.js';
import { readQuery } from '../query.js';
import { bookingRecord } from '../records.js';
import { readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { findStore } from '../stores.js';
import { formatZoned } from '../zoned-time.js';
import { pageRequest } from './list-params.js';
import { noQuery } from './no-query.js';

const PAGE = { limit: 'int', cursor: 'string' } as const;

export const reservationRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/reservations',
    handler: ({ account, query }) => {
      const q = readQuery(
        query,
        { ...PAGE, status: 'csv', acknowledged: 'bool', from: 'string', to: 'string', partner_location_id: 'string' },
        reservationsQuery,
      );
      const statuses = q.status === undefined ? undefined : new Set<string>(Array.isArray(q.status) ? q.status : [q.status]);
      const matches = (b: Booking): boolean => {
        if (statuses && !statuses.has(b.status)) return false;
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
      const source = q.partner_location_id === undefined ? account.bookingList : (account.stores.get(q.partner_location_id)?.bookings ?? []);
      return { status: 200, body: pageOf(source, pageRequest('reservations', query, q), bookingRecord, matches) };
    },
  },
  {
    method: 'GET',
    pattern: '/locations/:id/reservations',
    handler: ({ account, params, query }) => {
      const store = findStore(account, params.id ?? '');
      const q = readQuery(query, PAGE, locationReservationsQuery);
      return { status: 200, body: pageOf(store.bookings, pageRequest(`locations/${store.id}/reservations`, query, q), bookingRecord) };
    },
  },
  {
    method: 'POST',
    pattern: '/reservations/:id/acknowledge',
    handler: async ({ world, account, params, query, request }) => {
      noQuery(query);
      const booking = account.bookings.get(params.id ?? '');
      if (!booking) throw notFound(`Reservation ${JSON.stringify(params.id)}`);
      const body = validBody(acknowledgeBody, await readJson(request));
      acknowledge(world, booking, body.acknowledged_kind);
      return { status: 200, body: bookingRecord(booking) };
    },
  },
];
