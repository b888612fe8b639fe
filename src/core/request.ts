import type * as z from 'zod/mini';
import type { WithResponse } from './api-promise.js';
import type { PartnerApiError, PartnerError } from './errors.js';
import type { RetrySafety } from './retry-policy.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Stops the call, including any wait for the rate budget or a retry. */
  signal?: AbortSignal;
  /** Per-attempt time limit for this call, in milliseconds (headers and body). */
  timeout?: number;
  /** Retries for this call (0..10), when repeating it is safe. */
  maxRetries?: number;
}

/** One endpoint call, as a resource method describes it. */
export interface RequestSpec<S extends z.ZodMiniType> {
  /** The SDK method as a partner calls it, e.g. `locations.get`, `reservations.list`; reported to telemetry. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** Route under /partner/v1 with `{param}` placeholders, e.g. `/locations/{partner_location_id}`. */
  route: string;
  params?: Record<string, string>;
  /** Query parameters, already checked and in wire form. */
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body, already checked. */
  body?: unknown;
  response: S;
  retry: RetrySafety;
  /**
   * For a call that is not blindly repeatable: how to tell, when a repeat is refused with 409
   * after an earlier attempt failed in a way the service may have acted on, whether that attempt
   * did take effect. Without it, the refusal is the call's error.
   */
  settle?: Settle<z.infer<S>>;
}

/** What the transport knows when it asks a {@link Settle} hook. */
export interface SettleContext {
  /** The earlier attempt's failure, after which the service may have acted. */
  earlier: PartnerError;
  /** The repeat's refusal (a 409): what the state that attempt left would cause. */
  repeat: PartnerApiError;
  /** The call's signal, for the reads the hook makes. */
  signal: AbortSignal | undefined;
}

/** Settling a repeat that met the state its first attempt may have produced (see `RequestSpec.settle`). */
export interface Settle<T> {
  /**
   * Reads the state back: the call's result when it is what the call produces, undefined when
   * it is not. A failure of the read leaves the outcome unknown too.
   */
  read(context: SettleContext): Promise<WithResponse<T> | undefined>;
  /** What a person should check when the state does not tell, e.g. `the store's current sample batch (client.creators.getSamples('store-1'))`. */
  check: string;
}
