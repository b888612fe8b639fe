import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';
import { openEnum } from './common.js';

/** A creator named for a store, from acceptance on. Never any contact details (spec §1). */
export const creator = looseObject({
  creator_id: z.string(),
  handle: z.string(),
  platforms: z.array(z.string()),
  follower_count: z.number(),
  accepted_at: z.string(),
});
export type Creator = z.infer<typeof creator>;

export const sampleBatch = looseObject({
  batch_id: z.string(),
  status: openEnum(['awaiting_decision', 'approved', 'replaced']),
  creators: z.array(creator),
  created_at: z.string(),
});
export type SampleBatch = z.infer<typeof sampleBatch>;

export const SAMPLE_DECISIONS = ['approve', 'new_batch'] as const;
export const sampleDecisionBody = z.strictObject({
  decision: z.enum(SAMPLE_DECISIONS, 'must be "approve" or "new_batch"'),
});
export type SampleDecision = z.infer<typeof sampleDecisionBody>['decision'];
