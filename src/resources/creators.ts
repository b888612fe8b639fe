import { parseInput } from '../core/input.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request.js';
import { listQuery, type ListQuery } from '../schemas/common.js';
import { creator, sampleBatch, sampleDecisionBody, type Creator, type SampleBatch, type SampleDecision } from '../schemas/creators.js';
import { Resource, pageOf, type ListSpec } from './resource.js';

const LIST: ListSpec<Creator, ListQuery> = {
  operation: 'creators.list',
  route: '/locations/{partner_location_id}/creators',
  page: pageOf(creator),
  query: listQuery,
};

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
    return this.paginate(LIST, { partner_location_id: partnerLocationId }, query, options);
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
    return this.request(options, () => ({
      operation: 'creators.getSamples',
      method: 'GET',
      route: '/locations/{partner_location_id}/creator-samples',
      params: { partner_location_id: partnerLocationId },
      response: sampleBatch,
      retry: 'safe',
    }));
  }

  /**
   * Approve a sample batch or ask for a new one. Returns the approved batch or the new batch.
   * Not blindly repeatable (a repeated `new_batch` would ask for two batches), so it is retried
   * only when the service certainly did not act on it: a 429, a 5xx, or a refused connection;
   * never after a timeout or a connection lost mid-request.
   *
   * @example
   * ```ts
   * const batch = await client.creators.getSamples('store-42');
   * await client.creators.decideSamples('store-42', batch.batch_id, 'approve');
   * ```
   */
  decideSamples(partnerLocationId: string, batchId: string, decision: SampleDecision, options?: RequestOptions): APIPromise<SampleBatch> {
    return this.request(options, () => ({
      operation: 'creators.decideSamples',
      method: 'POST',
      route: '/locations/{partner_location_id}/creator-samples/{batch_id}/decision',
      params: { partner_location_id: partnerLocationId, batch_id: batchId },
      body: parseInput(sampleDecisionBody, { decision }),
      response: sampleBatch,
      retry: 'unsafe',
    }));
  }
}
