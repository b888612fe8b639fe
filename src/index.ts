export { PartnerClient } from './client.js';
export type { ClientOptions, Clock, Environment, RateLimitOptions } from './core/config.js';
export type { Logger } from './core/logger.js';
export type { LogLevel } from './core/console-logger.js';
export type { AfterResponseHook, BeforeRequestHook, ClientHooks } from './core/hooks.js';
export type { CallObserver, CallStart, Telemetry, WaitReason } from './core/instrumentation.js';
export type { RawRequest } from './core/raw-request.js';
export type { RequestOptions } from './core/request.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise } from './core/pagination.js';
export type { ResponseMeta } from './core/response-meta.js';
export type { RateLimitState } from './core/rate-limit/headers.js';
export {
  AbortedError,
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  FeatureNotEnabledError,
  ForbiddenIpError,
  HookError,
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  PartnerError,
  ProhibitedRuleError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  isPartnerApiError,
  isPartnerError,
  type AnyPartnerError,
  type ApiErrorCode,
  type ClientErrorCode,
  type PartnerErrorJSON,
  type PartnerErrorOptions,
  type PartnerApiErrorInit,
  type RequestSummary,
} from './core/errors.js';
export type { SharedBudget } from './core/rate-limit/shared.js';
export type { Content } from './resources/content.js';
export type { Creators } from './resources/creators.js';
export type { Locations } from './resources/locations.js';
export type {
  EnrollConflict,
  EnrollCounts,
  EnrollFailed,
  EnrollInvalid,
  EnrollManyOptions,
  EnrollNotAttempted,
  EnrollOutcome,
  EnrollOutcomeBase,
  EnrollProgress,
  EnrollResumeRecord,
  EnrollRows,
  EnrollSkipped,
  EnrollStatus,
  EnrollSuccess,
  EnrollSummary,
} from './resources/enroll-many/types.js';
export type { Pricing } from './resources/pricing.js';
export type { Reports } from './resources/reports.js';
export type { Reservations } from './resources/reservations.js';
export type { SettingsResource } from './resources/settings.js';
export type { Events } from './resources/events.js';
export * from './events/index.js';

// Wire types, inferred from the zod schemas that check requests and responses (src/schemas).
// Declared here, rather than re-exported, so that each carries its own summary in the API reference.
import type * as common from './schemas/common.js';
import type * as locations from './schemas/locations.js';
import type * as reservations from './schemas/reservations.js';
import type * as content from './schemas/content.js';
import type * as creators from './schemas/creators.js';
import type * as reports from './schemas/reports.js';
import type * as settings from './schemas/settings.js';
import type * as pricing from './schemas/pricing.js';

/** A store's street address as sent: `line1`, `city`, `state`, `postal_code`, `country` (ISO 3166-1 alpha-2). */
export type AddressInput = common.AddressInput;
/** A store's street address as the service returns it. */
export type Address = common.Address;
/** Opening hours by weekday (`mon`…`sun`), each a list of `{ open, close }` as `HH:MM` in the store's local time. A day left out is closed. */
export type WeeklyHours = common.WeeklyHours;
/** Opening hours as sent: `{ weekly }`. */
export type HoursInput = common.HoursInput;
/** Opening hours as returned: `state` is `'found'` or `'missing'` (a store without hours is on hold), with `weekly` when known. */
export type Hours = common.Hours;
/** Paging parameters every list accepts: `limit` (1..200, default 50) and `cursor` (a saved `nextCursor`). */
export type ListQuery = common.ListQuery;

/** Who may be invited for a store (follower ranges, platforms). Rules never select by ethnicity, age or gender. */
export type RulesInput = locations.RulesInput;
/** A store's plan: `{ name, videos_per_month }`. */
export type PlanInput = locations.PlanInput;
/** The store's contact for the service: `{ name, email, phone }`. */
export type ContactInput = locations.ContactInput;
/** Body of `locations.enroll()`: `partner_location_id`, `name`, `address`, and optionally hours, language, plan, contact, rules. */
export type EnrollLocationBody = locations.EnrollLocationBody;
/** Body of `locations.update()`: any of the changeable fields, nothing else. */
export type UpdateLocationBody = locations.UpdateLocationBody;
/** A store's state: `'active'`, `'paused'` or `'terminated'` (new values are kept as strings). */
export type LocationStatus = locations.LocationStatus;
/** A store as the service returns it. Fields this version does not know are kept. */
export type Location = locations.Location;
/** A short-lived token for the store dashboard (experimental: not switched on yet). */
export type DashboardToken = locations.DashboardToken;

/** A booking's state: `'pending'`, `'confirmed'`, `'completed'`, `'no_show'`, `'cancelled'`, `'rejected'` (new values are kept as strings). */
export type ReservationStatus = reservations.ReservationStatus;
/** How a booking was acknowledged: `'forwarded_to_manager'` or `'acknowledged_self'`. */
export type AcknowledgedKind = reservations.AcknowledgedKind;
/** A creator's booking at a store. `visit_at` carries the store's UTC offset and is null until confirmed. */
export type Reservation = reservations.Reservation;
/** Filters of `reservations.listForLocation()`. */
export type LocationReservationsQuery = reservations.LocationReservationsQuery;
/** Filters of `reservations.list()`: `status` (one or several), `acknowledged`, dates, store, and paging. */
export type ReservationsQuery = reservations.ReservationsQuery;

/** A video a creator published for a store. */
export type Video = content.Video;
/** A creator named for a store, from acceptance on; never any contact details. */
export type Creator = creators.Creator;
/** A batch of sample creators offered for review. */
export type SampleBatch = creators.SampleBatch;
/** The answer to a sample batch: `'approve'` or `'new_batch'`. */
export type SampleDecision = creators.SampleDecision;
/** One store's billable counts for a month: videos published, completed visits, no-shows. */
export type BillingRow = reports.BillingRow;
/** Account-wide counts: stores by state, bookings by state, videos published. */
export type Summary = reports.Summary;
/** The partner's settings: `surcharge_per_video_cents`. */
export type Settings = settings.Settings;
/** Body of `settings.update()`. */
export type UpdateSettingsBody = settings.UpdateSettingsBody;
/** A price quote for a plan. */
export type Quote = pricing.Quote;
/** Parameters of `pricing.quote()`: `plan`, `videos_per_month`, `country`. */
export type QuoteQuery = pricing.QuoteQuery;
