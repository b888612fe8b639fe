export { PartnerClient } from './client.js';
export type { ClientOptions, Clock, Environment, RateLimitOptions } from './core/config.js';
export type { Logger } from './core/logger.js';
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
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  PartnerError,
  ProhibitedRuleError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  isPartnerApiError,
  isPartnerError,
  type AnyPartnerError,
  type ApiErrorCode,
  type ClientErrorCode,
  type PartnerErrorJSON,
  type RequestSummary,
} from './core/errors.js';
export type { Address, AddressInput, HoursInput, Hours, ListQuery, WeeklyHours } from './schemas/common.js';
export type {
  ContactInput,
  DashboardToken,
  EnrollLocationBody,
  Location,
  LocationStatus,
  PlanInput,
  RulesInput,
  UpdateLocationBody,
} from './schemas/locations.js';
export type {
  AcknowledgedKind,
  LocationReservationsQuery,
  Reservation,
  ReservationStatus,
  ReservationsQuery,
} from './schemas/reservations.js';
export type { Video } from './schemas/content.js';
export type { Creator, SampleBatch, SampleDecision } from './schemas/creators.js';
export type { BillingRow, Summary } from './schemas/reports.js';
export type { Settings, UpdateSettingsBody } from './schemas/settings.js';
export type { Quote, QuoteQuery } from './schemas/pricing.js';
