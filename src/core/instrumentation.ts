import type { PartnerError } from './errors.js';

/**
 * What the transport reports about each SDK call, for telemetry (the `@crp/partner-sdk/otel` entry,
 * the console logger). The transport calls these at fixed points; an observer must not keep the
 * headers object beyond the call. One that throws (or rejects) is skipped without changing the call,
 * and reported once through the logger's `warn`. Nothing here ever carries the API key or a body.
 */
export interface Telemetry {
  /** A call starts, before any wait for the rate budget. One call per SDK method call (one per page of a list walk). */
  startCall(call: CallStart): CallObserver;
}

/** Identifies a call: the SDK method and the route template, never the filled-in path's query. */
export interface CallStart {
  /** The SDK method, e.g. `locations.get`; `request` for `client.request()`. */
  operation: string;
  /** HTTP method. */
  method: string;
  /** Route template including the base path, e.g. `/partner/v1/locations/{partner_location_id}`. */
  urlTemplate: string;
  /** Host name of the service. */
  serverAddress: string;
  /** Port of the service (the scheme's default when the URL names none). */
  serverPort: number;
}

/** Why a call waited before an attempt. */
export type WaitReason = 'rate_budget' | 'retry_after' | 'backoff' | 'shared_pause';

/** Per-call observer returned by {@link Telemetry.startCall}; every method is optional. */
export interface CallObserver {
  /** An attempt is about to be sent; `headers` may be added to (trace propagation) and is sent as it is. */
  attemptStart?(attempt: { attempt: number; headers: Record<string, string> }): void;
  /** An attempt ended with a response or a failure. */
  attemptEnd?(attempt: {
    attempt: number;
    durationMs: number;
    status?: number;
    requestId?: string;
    error?: PartnerError;
    /** The budget the response reported, when it did. */
    rateLimit?: { limit?: number; remaining?: number };
  }): void;
  /** The call waited (for the budget, a Retry-After, a backoff, a pause another call received). */
  waited?(wait: { reason: WaitReason; ms: number }): void;
  /** A failed attempt will be repeated after `waitMs`. */
  retrying?(retry: { attempt: number; reason: string; waitMs: number }): void;
  /** The call settled. */
  end?(outcome: {
    attempts: number;
    durationMs: number;
    status?: number;
    requestId?: string;
    error?: PartnerError;
  }): void;
}
