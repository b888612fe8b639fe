import type * as z from 'zod/mini';
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
}
