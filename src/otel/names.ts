/**
 * Every attribute, event and instrument name the otel entry emits, in one place (docs/observability.md
 * lists them for partners). HTTP names follow OpenTelemetry's semantic conventions; what has no
 * convention (the SDK method, waits, the rate budget) lives under `crp.`.
 */

/** Instrumentation scope of the tracer and the meter. */
export const SCOPE = '@crp/partner-sdk';

export const ATTR = {
  method: 'http.request.method',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlTemplate: 'url.template',
  status: 'http.response.status_code',
  errorType: 'error.type',
  resendCount: 'http.request.resend_count',
  operation: 'crp.operation',
  outcome: 'crp.outcome',
  requestId: 'crp.request_id',
  attempts: 'crp.attempts',
  attempt: 'crp.attempt',
  errorCode: 'crp.error.code',
  waitReason: 'crp.wait.reason',
  waitMs: 'crp.wait.duration_ms',
  retryReason: 'crp.retry.reason',
  retryWaitMs: 'crp.retry.wait_ms',
  remaining: 'crp.rate_limit.remaining',
  limit: 'crp.rate_limit.limit',
} as const;

export const EVENT = {
  wait: 'crp.wait',
  retry: 'crp.retry',
} as const;

export const METRIC = {
  calls: 'crp.client.calls',
  callDuration: 'crp.client.call.duration',
  waitDuration: 'crp.client.wait.duration',
  rateLimited: 'crp.client.rate_limited',
  retries: 'crp.client.retries',
  remaining: 'crp.client.rate_limit.remaining',
} as const;
