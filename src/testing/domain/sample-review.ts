import { DomainError } from '../model/domain-error.js';
import type { SampleBatch, Store } from '../model/model.js';
import { storeRecord } from '../http/records.js';
import type { World } from '../model/world.js';

const BATCH_SIZE = 5;

export function usesSampleReview(world: World, store: Store): boolean {
  const record = storeRecord(store);
  return world.options.sampleReview({
    partner_location_id: record.partner_location_id,
    plan: record.plan ?? null,
    address: record.address,
  });
}

/** A new batch awaiting the merchant's decision: creators the operator proposes. */
export function newBatch(world: World, store: Store): SampleBatch {
  const now = world.clock.nowMs();
  const creators = [];
  const seen = new Set<string>();
  for (let i = 0; i < BATCH_SIZE * 4 && creators.length < BATCH_SIZE; i++) {
    const creator = world.creators.invite(store.rng, store.rules);
    if (seen.has(creator.id)) continue;
    seen.add(creator.id);
    creators.push({ seq: world.nextSeq(), creator, acceptedAt: now });
  }
  const seq = world.nextSeq();
  const batch: SampleBatch = {
    seq,
    id: world.newId('bat', seq),
    status: 'awaiting_decision',
    creators,
    createdAt: now,
  };
  store.batches.push(batch);
  return batch;
}

/** The current batch of a store that uses sample review (created on first need). */
export function currentBatch(world: World, store: Store): SampleBatch {
  if (!usesSampleReview(world, store)) {
    throw new DomainError({ kind: 'no_sample_review', storeId: store.id });
  }
  return store.batches.at(-1) ?? newBatch(world, store);
}

/** Approve the current batch, or replace it with a new one (which is returned). Not safe to repeat. */
export function decide(world: World, store: Store, batchId: string, decision: 'approve' | 'new_batch'): SampleBatch {
  const current = currentBatch(world, store);
  const batch = store.batches.find((b) => b.id === batchId);
  if (!batch) throw new DomainError({ kind: 'batch_not_found', storeId: store.id, batchId });
  if (batch !== current || batch.status !== 'awaiting_decision') {
    throw new DomainError({
      kind: 'batch_not_awaiting',
      storeId: store.id,
      batchId,
      state: batch === current ? (batch.status as 'approved' | 'replaced') : 'not_current',
    });
  }
  if (decision === 'approve') {
    batch.status = 'approved';
    return batch;
  }
  batch.status = 'replaced';
  return newBatch(world, store);
}
