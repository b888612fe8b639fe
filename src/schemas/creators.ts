import * as z from 'zod/mini';
import { openEnum } from './common.js';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';

const creatorFields = {
  /** The creator's id. */
  creator_id: z.string(),
  /** The creator's handle. */
  handle: z.string(),
  /** Platforms the creator posts on. */
  platforms: z.array(z.string()),
  /** The creator's followers. */
  follower_count: z.number(),
  /** When the creator accepted the store, ISO 8601 UTC. */
  accepted_at: z.string(),
};
/** A creator named for a store, from acceptance on. Never any contact details. */
export interface Creator extends ResponseFields<typeof creatorFields> {}
export const creator: Schema<Creator> = z.looseObject(creatorFields);

export const SAMPLE_BATCH_STATUSES = ['awaiting_decision', 'approved', 'replaced'] as const;
const sampleBatchFields = {
  /** The batch's id. */
  batch_id: z.string(),
  /** `awaiting_decision`, `approved` or `replaced`. */
  status: openEnum(SAMPLE_BATCH_STATUSES),
  /** The creators offered. */
  creators: z.array(creator),
  /** When the batch was made, ISO 8601 UTC. */
  created_at: z.string(),
};
/** A batch of sample creators offered for review. */
export interface SampleBatch extends ResponseFields<typeof sampleBatchFields> {}
export const sampleBatch: Schema<SampleBatch> = z.looseObject(sampleBatchFields);

export const SAMPLE_DECISIONS = ['approve', 'new_batch'] as const;
const sampleDecisionFields = {
  /** `approve` the batch, or ask for a `new_batch`. */
  decision: z.enum(SAMPLE_DECISIONS, 'must be "approve" or "new_batch"'),
};
export interface SampleDecisionBody extends RequestFields<typeof sampleDecisionFields> {}
export const sampleDecisionBody: InputSchema<SampleDecisionBody> = z.strictObject(sampleDecisionFields);
/** The answer to a sample batch: `approve` or `new_batch`.
 *
 * @useDeclaredType
 */
export type SampleDecision = SampleDecisionBody['decision'];
