import type { ResponseMeta } from './response-meta.js';

/** What `.withResponse()` resolves to: the data and the HTTP response it came from. */
export interface WithResponse<T> {
  /** The typed data, as the call itself resolves to. */
  data: T;
  /** Status, headers, request id and rate-limit figures of the response. */
  response: ResponseMeta;
}

/**
 * The promise every method returns: await it for the data, or call `.withResponse()` for the
 * data together with status, headers, request id and rate-limit state.
 *
 * @example
 * ```ts
 * const { data, response } = await client.locations.get('store-1').withResponse();
 * console.log(response.requestId, response.rateLimit?.remaining);
 * ```
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** @internal Created by the SDK's methods. */
  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /** The data together with the response it came from. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  /** Resolves to the data, as any promise does (`await client.locations.get(id)`). */
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One promise per await: the data is taken out in the same step that hands it on.
    return this.#result.then(
      onfulfilled ? (result) => onfulfilled(result.data) : (result) => result.data as unknown as R1,
      onrejected,
    );
  }

  /** Handles a failure: the reason is a `PartnerError`. */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  /** Runs `onfinally` once the call settles, either way. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
