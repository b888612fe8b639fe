import type { WithResponse } from './api-promise.js';
import type { PartnerApiError, PartnerError } from './errors.js';

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Stops the call, including any wait for the rate budget or a retry. */
  signal?: AbortSignal;
  /** Per-attempt time limit for this call, in milliseconds (headers and body). */
  timeout?: number;
  /** Retries for this call (0..10), when repeating it is safe. */
  maxRetries?: number;
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

/** Settling a repeat that met the state its first attempt may have produced (see `CallInput.settle`). */
export interface Settle<T> {
  /**
   * Reads the state back: the call's result when it is what the call produces, undefined when
   * it is not. A failure of the read leaves the outcome unknown too.
   */
  read(context: SettleContext): Promise<WithResponse<T> | undefined>;
  /** What a person should check when the state does not tell, e.g. `the store's current sample batch (client.creators.getSamples('store-1'))`. */
  check: string;
}
