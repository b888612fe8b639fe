import type * as z from 'zod/mini';
import { listQuery } from '../schemas/common.js';
import { sampleDecisionBody } from '../schemas/creators.js';
import { enrollLocationBody, updateLocationBody } from '../schemas/locations.js';
import { quoteQuery } from '../schemas/pricing.js';
import { billingQuery } from '../schemas/reports.js';
import { acknowledgeBody, locationReservationsQuery, reservationsQuery } from '../schemas/reservations.js';
import { updateSettingsBody } from '../schemas/settings.js';
import type { ErrorCode } from './errors.js';
import type { Namespaces } from './record-requests.js';

/** What the document says of one operation beyond what its resource method states (method, route, response, retry safety). */
export interface OperationDoc {
  /** Calls the SDK method, so its request can be recorded (any valid arguments). */
  call: (ns: Namespaces) => unknown;
  tag: string;
  summary: string;
  description?: string;
  /** The query's schema, and the name of its type in src/schemas (for the fields' descriptions). */
  query?: { schema: z.ZodMiniType; type: string };
  /** The body's schema, and its type's name (also its name under components.schemas). */
  body?: { schema: z.ZodMiniType; type: string };
  /** Codes beyond those any call can get (validation_error, unauthorized, forbidden_ip, rate_limited, internal_error, unavailable). */
  errors: ErrorCode[];
  /** A first-time success answers 201 (and a repeat 200). */
  created?: string;
}

const ADDRESS = { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' };

/** Tags, in the order a reader meets them. */
export const TAGS = [
  { name: 'Stores', description: 'Enroll, read, change, pause, resume and terminate stores (`/locations`).' },
  { name: 'Bookings', description: "Creators' bookings (`reservations`) and their acknowledgement." },
  { name: 'Videos', description: 'Videos creators published for a store.' },
  { name: 'Creators', description: 'Creators named for a store, and sample review.' },
  { name: 'Reports', description: 'Account-wide summary and monthly billing counts.' },
  { name: 'Pricing and settings', description: "Price quotes and the partner's surcharge per video." },
];

/** Every operation of the service, by the SDK's operation name (`namespace.method`). */
export const OPERATIONS: Record<string, OperationDoc> = {
  'locations.enroll': {
    call: (ns) => ns.locations.enroll({ partner_location_id: 'store-1', name: 'Noodle Bar', address: ADDRESS }),
    tag: 'Stores',
    summary: 'Enroll a store',
    description:
      'Idempotent on `partner_location_id`: the first enrollment answers 201; the same id, name and address again answer 200 with the same store, so a retried enrollment never creates two. The same id with another name or address: 409 `conflict` (change a store with PATCH). Hours left out are looked up; `hours.state` is `missing` (the store on hold) until they are known.',
    body: { schema: enrollLocationBody, type: 'EnrollLocationBody' },
    errors: ['conflict', 'payload_too_large', 'prohibited_rule'],
    created: 'The store, enrolled now.',
  },
  'locations.get': {
    call: (ns) => ns.locations.get('store-1'),
    tag: 'Stores',
    summary: 'Read a store, with its progress and next visit',
    errors: ['not_found'],
  },
  'locations.update': {
    call: (ns) => ns.locations.update('store-1', { name: 'Noodle Bar' }),
    tag: 'Stores',
    summary: "Change a store's name, address, plan, dishes, language, hours, time zone, contact or rules",
    description: 'Send only the fields to change; `address` is sent whole. Any other field is refused with 400 `validation_error`.',
    body: { schema: updateLocationBody, type: 'UpdateLocationBody' },
    errors: ['not_found', 'payload_too_large', 'prohibited_rule'],
  },
  'locations.pause': {
    call: (ns) => ns.locations.pause('store-1'),
    tag: 'Stores',
    summary: 'Pause scheduling (active or paused → paused)',
    description: 'No body. Repeatable. A terminated store: 409 `invalid_state`.',
    errors: ['not_found', 'invalid_state'],
  },
  'locations.resume': {
    call: (ns) => ns.locations.resume('store-1'),
    tag: 'Stores',
    summary: 'Resume scheduling (paused or active → active)',
    description: 'No body. Repeatable. A terminated store: 409 `invalid_state`.',
    errors: ['not_found', 'invalid_state'],
  },
  'locations.terminate': {
    call: (ns) => ns.locations.terminate('store-1'),
    tag: 'Stores',
    summary: "End a store's contract (final; history kept)",
    description: 'No body. Repeatable.',
    errors: ['not_found'],
  },
  'locations.createDashboardToken': {
    call: (ns) => ns.locations.createDashboardToken('store-1'),
    tag: 'Stores',
    summary: "A read-only token for one store's dashboard page, valid 30 minutes (coming: not switched on)",
    description: 'Until the service switches it on, the answer is 403 `feature_not_enabled`.',
    errors: ['not_found', 'feature_not_enabled'],
  },
  'reservations.list': {
    call: (ns) => ns.reservations.list(),
    tag: 'Bookings',
    summary: "Every store's bookings, filtered by status, acknowledgement, visit date and store",
    description: '`from` and `to` compare with the visit\'s local date, both inclusive. An unknown `partner_location_id` gives an empty list.',
    query: { schema: reservationsQuery, type: 'ReservationsQuery' },
    errors: [],
  },
  'reservations.listForLocation': {
    call: (ns) => ns.reservations.listForLocation('store-1'),
    tag: 'Bookings',
    summary: "One store's bookings",
    query: { schema: locationReservationsQuery, type: 'LocationReservationsQuery' },
    errors: ['not_found'],
  },
  'reservations.acknowledge': {
    call: (ns) => ns.reservations.acknowledge('res_1', 'acknowledged_self'),
    tag: 'Bookings',
    summary: 'Record that the merchant saw a booking',
    description: 'Sets `acknowledged_kind`; the status is unchanged. Repeatable; the latest kind stands.',
    body: { schema: acknowledgeBody, type: 'AcknowledgeBody' },
    errors: ['not_found', 'payload_too_large'],
  },
  'content.list': {
    call: (ns) => ns.content.list('store-1'),
    tag: 'Videos',
    summary: "One store's published videos (no view or like counts yet)",
    query: { schema: listQuery, type: 'ListQuery' },
    errors: ['not_found'],
  },
  'creators.list': {
    call: (ns) => ns.creators.list('store-1'),
    tag: 'Creators',
    summary: 'Creators named for a store, from acceptance on (no contact details)',
    query: { schema: listQuery, type: 'ListQuery' },
    errors: ['not_found'],
  },
  'creators.getSamples': {
    call: (ns) => ns.creators.getSamples('store-1'),
    tag: 'Creators',
    summary: 'The current sample batch of a store that uses sample review',
    description: 'A store without sample review: 404 `not_found`.',
    errors: ['not_found'],
  },
  'creators.decideSamples': {
    call: (ns) => ns.creators.decideSamples('store-1', 'batch_1', 'approve'),
    tag: 'Creators',
    summary: 'Approve a sample batch, or ask for a new one',
    description:
      'Answers the approved batch, or the new batch. NOT safe to repeat blindly: a repeated `new_batch` asks for two batches. Retry only when the service certainly did not act: a 429, the service’s own 500 or 503 (its JSON error body), a connection refused before sending; never after a 502 or 504 (a gateway may have passed it on), a proxy’s error page, a timeout or a connection lost mid-request. A batch that is not awaiting a decision: 409 `invalid_state`.',
    body: { schema: sampleDecisionBody, type: 'SampleDecisionBody' },
    errors: ['not_found', 'invalid_state', 'payload_too_large'],
  },
  'reports.summary': {
    call: (ns) => ns.reports.summary(),
    tag: 'Reports',
    summary: "All the partner's stores in one call: stores and bookings by state, videos published",
    errors: [],
  },
  'reports.billingMonthly': {
    call: (ns) => ns.reports.billingMonthly('2026-12'),
    tag: 'Reports',
    summary: 'Per-store counts for a month: videos published, completed visits, no-shows',
    query: { schema: billingQuery, type: 'BillingQuery' },
    errors: [],
  },
  'pricing.quote': {
    call: (ns) => ns.pricing.quote({ plan: 'growth', videos_per_month: 8 }),
    tag: 'Pricing and settings',
    summary: "The finished price for a merchant's choices, surcharge included, before the store is enrolled",
    query: { schema: quoteQuery, type: 'QuoteQuery' },
    errors: [],
  },
  'settings.get': {
    call: (ns) => ns.settings.get(),
    tag: 'Pricing and settings',
    summary: "The partner's surcharge per video",
    errors: [],
  },
  'settings.update': {
    call: (ns) => ns.settings.update({ surcharge_per_video_cents: 0 }),
    tag: 'Pricing and settings',
    summary: 'Set the surcharge per video, once for all stores',
    body: { schema: updateSettingsBody, type: 'UpdateSettingsBody' },
    errors: ['payload_too_large'],
  },
};
