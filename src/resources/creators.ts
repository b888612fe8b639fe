import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions, Settle } from '../core/request.js';
import type { ListQuery } from '../schemas/common.js';
import type { Creator, SampleBatch, SampleDecision } from '../schemas/creators.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

/** Creators named for a store, and sample review. */
export class Creators extends Resource {
  /**
   * Creators named for a store, from acceptance on. No contact details.
   *
   * @example
   * ```ts
   * for await (const c of client.creators.list('store-42')) console.log(c.handle, c.follower_count);
   * ```
   */
  list(partnerLocationId: string, query?: ListQuery, options?: RequestOptions): PagePromise<Creator> {
    return this.paginate(OPERATIONS['creators.list'], { partner_location_id: partnerLocationId }, query, options);
  }

  /**
   * The current sample batch of a store that uses sample review (`NotFoundError` otherwise).
   *
   * @example
   * ```ts
   * const batch = await client.creators.getSamples('store-42');
   * console.log(batch.batch_id, batch.status, batch.creators.length);
   * ```
   */
  getSamples(partnerLocationId: string, options?: RequestOptions): APIPromise<SampleBatch> {
    return this.call(
      OPERATIONS['creators.getSamples'],
      { params: { partner_location_id: partnerLocationId } },
      options,
    );
  }

  /**
   * Approve a sample batch or ask for a new one. Returns the approved batch or the new batch.
   * Not blindly repeatable (a repeated `new_batch` would ask for two batches), so it is retried
   * only after a 429, the service's own 500 or 503, or a refused connection; never after a
   * timeout or a connection lost mid-request. A 500 may come after the decision was made: when
   * the repeat is then refused (409 `invalid_state`), the current batch is read back, and the
   * call succeeds if it shows the decision made (approve: that batch approved; new_batch: a new
   * batch awaiting a decision), or throws `AmbiguousOutcomeError` if it does not.
   *
   * @example
   * ```ts
   * const batch = await client.creators.getSamples('store-42');
   * await client.creators.decideSamples('store-42', batch.batch_id, 'approve');
   * ```
   */
  decideSamples(
    partnerLocationId: string,
    batchId: string,
    decision: SampleDecision,
    options?: RequestOptions,
  ): APIPromise<SampleBatch> {
    const params = { partner_location_id: partnerLocationId, batch_id: batchId };
    return this.call(
      OPERATIONS['creators.decideSamples'],
      { params, body: { decision }, settle: this.#decided(params, decision) },
      options,
    );
  }

  /** The state a decision leaves, read back: the current batch, when it is what `decision` produces. */
  #decided(
    { partner_location_id: partnerLocationId, batch_id: batchId }: Record<'partner_location_id' | 'batch_id', string>,
    decision: SampleDecision,
  ): Settle<SampleBatch> {
    return {
      check: `the store's current sample batch (client.creators.getSamples(${JSON.stringify(partnerLocationId)}))`,
      read: async ({ signal }) => {
        const current = await this.getSamples(partnerLocationId, signal ? { signal } : undefined).withResponse();
        const { batch_id: id, status } = current.data;
        const done =
          decision === 'approve'
            ? id === batchId && status === 'approved'
            : id !== batchId && status === 'awaiting_decision';
        return done ? current : undefined;
      },
    };
  }
}
