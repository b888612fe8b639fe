import type { Operation } from '../core/operation.js';
import { listQuery } from '../schemas/common.js';
import { video } from '../schemas/content.js';
import { creator, sampleBatch, sampleDecisionBody } from '../schemas/creators.js';
import { batchId, reservationId } from '../schemas/ids.js';
import { dashboardToken, enrollLocationBody, location, locationId, updateLocationBody } from '../schemas/locations.js';
import { priceQuote, quoteQuery } from '../schemas/pricing.js';
import { billingQuery, billingRow, summary } from '../schemas/reports.js';
import {
  acknowledgeBody,
  locationReservationsQuery,
  reservation,
  reservationsQuery,
  type ReservationsQuery,
} from '../schemas/reservations.js';
import { settings, updateSettingsBody } from '../schemas/settings.js';
import { pageOf } from './resource.js';
import { STATE_ADVICE, enrollAdvice, refuseStoreRules } from './store-rules.js';

const STORE = { partner_location_id: locationId };
const ONE = '/locations/{partner_location_id}';
const reservationPage = pageOf(reservation);

/**
 * Every endpoint of the service, one row each (see `Operation`): the resources' methods name their
 * row, the transport sends by it, and the OpenAPI document is generated from it.
 */
export const OPERATIONS = {
  'locations.enroll': {
    name: 'locations.enroll',
    method: 'POST',
    route: '/locations',
    body: { schema: enrollLocationBody, type: 'EnrollLocationBody', refuse: refuseStoreRules },
    response: location,
    retry: 'safe',
    advice: enrollAdvice,
    doc: {
      tag: 'Stores',
      summary: 'Enroll a store',
      description:
        'Idempotent on `partner_location_id`: the first enrollment answers 201; the same id, name and ' +
        'address again answer 200 with the same store, so a retried enrollment never creates two. The same ' +
        'id with another name or address: 409 `conflict` (change a store with PATCH). Hours left out are ' +
        'looked up; `hours.state` is `missing` (the store on hold) until they are known.',
      errors: ['conflict', 'payload_too_large', 'prohibited_rule'],
      created: 'The store, enrolled now.',
    },
  },
  'locations.get': {
    name: 'locations.get',
    method: 'GET',
    route: ONE,
    path: STORE,
    response: location,
    retry: 'safe',
    doc: { tag: 'Stores', summary: 'Read a store, with its progress and next visit', errors: ['not_found'] },
  },
  'locations.update': {
    name: 'locations.update',
    method: 'PATCH',
    route: ONE,
    path: STORE,
    body: { schema: updateLocationBody, type: 'UpdateLocationBody', refuse: refuseStoreRules },
    response: location,
    retry: 'safe',
    doc: {
      tag: 'Stores',
      summary: "Change a store's name, address, plan, dishes, language, hours, time zone, contact or rules",
      description:
        'Send only the fields to change; `address` is sent whole. Any other field is refused with 400 `validation_error`.',
      errors: ['not_found', 'payload_too_large', 'prohibited_rule'],
    },
  },
  'locations.pause': {
    name: 'locations.pause',
    method: 'POST',
    route: `${ONE}/pause`,
    path: STORE,
    response: location,
    retry: 'safe',
    advice: STATE_ADVICE,
    doc: {
      tag: 'Stores',
      summary: 'Pause scheduling (active or paused → paused)',
      description: 'No body. Repeatable. A terminated store: 409 `invalid_state`.',
      errors: ['not_found', 'invalid_state'],
    },
  },
  'locations.resume': {
    name: 'locations.resume',
    method: 'POST',
    route: `${ONE}/resume`,
    path: STORE,
    response: location,
    retry: 'safe',
    advice: STATE_ADVICE,
    doc: {
      tag: 'Stores',
      summary: 'Resume scheduling (paused or active → active)',
      description: 'No body. Repeatable. A terminated store: 409 `invalid_state`.',
      errors: ['not_found', 'invalid_state'],
    },
  },
  'locations.terminate': {
    name: 'locations.terminate',
    method: 'POST',
    route: `${ONE}/terminate`,
    path: STORE,
    response: location,
    retry: 'safe',
    advice: STATE_ADVICE,
    doc: {
      tag: 'Stores',
      summary: "End a store's contract (final; history kept)",
      description: 'No body. Repeatable.',
      errors: ['not_found'],
    },
  },
  'locations.createDashboardToken': {
    name: 'locations.createDashboardToken',
    method: 'POST',
    route: `${ONE}/dashboard-token`,
    path: STORE,
    response: dashboardToken,
    retry: 'safe',
    doc: {
      tag: 'Stores',
      summary: "A read-only token for one store's dashboard page, valid 30 minutes (coming: not switched on)",
      description: 'Until the service switches it on, the answer is 403 `feature_not_enabled`.',
      errors: ['not_found', 'feature_not_enabled'],
    },
  },
  'reservations.list': {
    name: 'reservations.list',
    method: 'GET',
    route: '/reservations',
    query: {
      schema: reservationsQuery,
      type: 'ReservationsQuery',
      toWire: (q: ReservationsQuery) => ({ ...q, status: Array.isArray(q.status) ? q.status.join(',') : q.status }),
    },
    response: reservationPage,
    item: reservation,
    retry: 'safe',
    doc: {
      tag: 'Bookings',
      summary: "Every store's bookings, filtered by status, acknowledgement, visit date and store",
      description:
        "`from` and `to` compare with the visit's local date, both inclusive. An unknown `partner_location_id` gives an empty list.",
      errors: [],
    },
  },
  'reservations.listForLocation': {
    name: 'reservations.listForLocation',
    method: 'GET',
    route: `${ONE}/reservations`,
    path: STORE,
    query: { schema: locationReservationsQuery, type: 'LocationReservationsQuery' },
    response: reservationPage,
    item: reservation,
    retry: 'safe',
    doc: { tag: 'Bookings', summary: "One store's bookings", errors: ['not_found'] },
  },
  'reservations.acknowledge': {
    name: 'reservations.acknowledge',
    method: 'POST',
    route: '/reservations/{reservation_id}/acknowledge',
    path: { reservation_id: reservationId },
    body: { schema: acknowledgeBody, type: 'AcknowledgeBody' },
    response: reservation,
    retry: 'safe',
    doc: {
      tag: 'Bookings',
      summary: 'Record that the merchant saw a booking',
      description: 'Sets `acknowledged_kind`; the status is unchanged. Repeatable; the latest kind stands.',
      errors: ['not_found', 'payload_too_large'],
    },
  },
  'content.list': {
    name: 'content.list',
    method: 'GET',
    route: `${ONE}/content`,
    path: STORE,
    query: { schema: listQuery, type: 'ListQuery' },
    response: pageOf(video),
    item: video,
    retry: 'safe',
    doc: { tag: 'Videos', summary: "One store's published videos (no view or like counts yet)", errors: ['not_found'] },
  },
  'creators.list': {
    name: 'creators.list',
    method: 'GET',
    route: `${ONE}/creators`,
    path: STORE,
    query: { schema: listQuery, type: 'ListQuery' },
    response: pageOf(creator),
    item: creator,
    retry: 'safe',
    doc: {
      tag: 'Creators',
      summary: 'Creators named for a store, from acceptance on (no contact details)',
      errors: ['not_found'],
    },
  },
  'creators.getSamples': {
    name: 'creators.getSamples',
    method: 'GET',
    route: `${ONE}/creator-samples`,
    path: STORE,
    response: sampleBatch,
    retry: 'safe',
    doc: {
      tag: 'Creators',
      summary: 'The current sample batch of a store that uses sample review',
      description: 'A store without sample review: 404 `not_found`.',
      errors: ['not_found'],
    },
  },
  'creators.decideSamples': {
    name: 'creators.decideSamples',
    method: 'POST',
    route: `${ONE}/creator-samples/{batch_id}/decision`,
    path: { ...STORE, batch_id: batchId },
    body: { schema: sampleDecisionBody, type: 'SampleDecisionBody' },
    response: sampleBatch,
    retry: 'unsafe',
    doc: {
      tag: 'Creators',
      summary: 'Approve a sample batch, or ask for a new one',
      description:
        'Answers the approved batch, or the new batch. NOT safe to repeat blindly: a repeated `new_batch` ' +
        'asks for two batches. Retry only when the service certainly did not act: a 429, the service’s own ' +
        '500 or 503 (its JSON error body), a connection refused before sending; never after a 502 or 504 ' +
        '(a gateway may have passed it on), a proxy’s error page, a timeout or a connection lost ' +
        'mid-request. A batch that is not awaiting a decision: 409 `invalid_state`.',
      errors: ['not_found', 'invalid_state', 'payload_too_large'],
    },
  },
  'reports.summary': {
    name: 'reports.summary',
    method: 'GET',
    route: '/summary',
    response: summary,
    retry: 'safe',
    doc: {
      tag: 'Reports',
      summary: "All the partner's stores in one call: stores and bookings by state, videos published",
      errors: [],
    },
  },
  'reports.billingMonthly': {
    name: 'reports.billingMonthly',
    method: 'GET',
    route: '/billing/monthly',
    query: { schema: billingQuery, type: 'BillingQuery' },
    response: pageOf(billingRow),
    item: billingRow,
    retry: 'safe',
    doc: {
      tag: 'Reports',
      summary: 'Per-store counts for a month: videos published, completed visits, no-shows',
      errors: [],
    },
  },
  'pricing.quote': {
    name: 'pricing.quote',
    method: 'GET',
    route: '/pricing/quote',
    query: { schema: quoteQuery, type: 'QuoteQuery' },
    response: priceQuote,
    retry: 'safe',
    doc: {
      tag: 'Pricing and settings',
      summary: "The finished price for a merchant's choices, surcharge included, before the store is enrolled",
      errors: [],
    },
  },
  'settings.get': {
    name: 'settings.get',
    method: 'GET',
    route: '/settings',
    response: settings,
    retry: 'safe',
    doc: { tag: 'Pricing and settings', summary: "The partner's surcharge per video", errors: [] },
  },
  'settings.update': {
    name: 'settings.update',
    method: 'PUT',
    route: '/settings',
    body: { schema: updateSettingsBody, type: 'UpdateSettingsBody' },
    response: settings,
    retry: 'safe',
    doc: {
      tag: 'Pricing and settings',
      summary: 'Set the surcharge per video, once for all stores',
      errors: ['payload_too_large'],
    },
  },
} as const satisfies Record<string, Operation>;
