/**
 * `@crp/partner-sdk/bulk`: many enrollments through the client's own rate limiter. Built on the
 * public client only (`../index.js`, kept external in the build), like any application.
 */
import type { PartnerClient } from '../index.js';
import { EnrollRun } from './run.js';
import type { EnrollManyOptions, EnrollRows, EnrollSummary } from './types.js';

export type * from './types.js';

/**
 * Enroll many stores (an array, an iterable or a CSV stream, read lazily) under the key's budget
 * of `client`: each row gets one outcome, given to `onOutcome` as rows finish; resolves to the
 * counts. Rows with the same `partner_location_id` run one after the other, in order, and the
 * first decides: a later one with other content is a `conflict`, not sent; a later identical one,
 * once an earlier one has enrolled the store, takes that answer without a call (`sameAs`). See the
 * README's "Enrolling many stores" for outcomes, `signal` and `resume`.
 *
 * @throws ConfigurationError (as a rejection) when `client` is not a client or an option is wrong.
 *
 * @example
 * ```ts
 * import { enrollMany } from '@crp/partner-sdk/bulk';
 *
 * const summary = await enrollMany(client, rows, {
 *   onOutcome: (o) => { if (o.status === 'invalid' || o.status === 'failed') console.log(o.index, o.message) },
 * });
 * console.log(summary.counts.created, summary.counts.already_enrolled);
 * ```
 */
export async function enrollMany(
  client: PartnerClient,
  rows: EnrollRows,
  options: EnrollManyOptions = {},
): Promise<EnrollSummary> {
  return new EnrollRun(client, rows, options).run();
}
