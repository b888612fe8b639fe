export { PartnerClient } from './client.js';
export type { ClientClock, ClientOptions, Clock, Environment, RateLimitOptions } from './core/config.js';
export type { Logger } from './core/logger.js';
export type { LogLevel } from './core/console-logger.js';
export type { AfterResponseHook, BeforeRequestHook, ClientHooks } from './core/hooks.js';
export type { CallObserver, CallStart, Telemetry, WaitReason } from './core/instrumentation.js';
export type { RawRequest } from './core/raw-request.js';
export type { RequestOptions } from './core/request.js';
export { effectInDoubt, isTransient } from './core/retry-policy.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise } from './core/pagination.js';
export type { ResponseMeta } from './core/response-meta.js';
export type { RateLimitState } from './core/rate-limit/headers.js';
export {
  AbortedError,
  AuthenticationError,
  CheckpointInvalidError,
  CheckpointLockedError,
  ConfigurationError,
  ConflictError,
  AmbiguousOutcomeError,
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
  type OtherApiError,
  type UnknownApiErrorCode,
  type ServerErrorCode,
  type ClientErrorCode,
  type PartnerErrorJSON,
  type PartnerErrorOptions,
  type PartnerApiErrorInit,
  type RateLimitErrorInit,
  type RequestSummary,
} from './core/errors.js';
export type { SharedBudget } from './core/rate-limit/shared.js';
export type { Content } from './resources/content.js';
export type { Creators } from './resources/creators.js';
export type { Locations } from './resources/locations.js';
export type { Pricing } from './resources/pricing.js';
export type { Reports } from './resources/reports.js';
export type { Reservations } from './resources/reservations.js';
export type { SettingsResource } from './resources/settings.js';

// Wire types: interfaces derived from the zod schemas that check requests and responses
// (src/schemas), each field described once there.
export type {
  Address,
  AddressInput,
  Hours,
  HoursInput,
  ListQuery,
  OpeningSpan,
  OpeningSpanRecord,
  WeeklyHours,
  WeeklyHoursRecord,
} from './schemas/common.js';
export type {
  Contact,
  ContactInput,
  DashboardToken,
  EnrollLocationBody,
  FollowerRange,
  FollowerRangeRecord,
  Location,
  LocationStatus,
  NextVisit,
  Plan,
  PlanInput,
  Progress,
  Rules,
  RulesInput,
  UpdateLocationBody,
} from './schemas/locations.js';
export type {
  AcknowledgedKind,
  LocationReservationsQuery,
  Reservation,
  ReservationCreator,
  ReservationsQuery,
  ReservationStatus,
} from './schemas/reservations.js';
export type { Video } from './schemas/content.js';
export type { Creator, SampleBatch, SampleDecision } from './schemas/creators.js';
export type { BillingRow, LocationCounts, ReservationCounts, Summary } from './schemas/reports.js';
export type { Settings, UpdateSettingsBody } from './schemas/settings.js';
export type { PriceQuote, QuoteQuery } from './schemas/pricing.js';
export { unknownField } from './schemas/unknown-field.js';
