import { describe, expect, it } from 'vitest';
import { openSandbox, TRANSPORTS } from './support/harness.js';

const PLAN = { plan: { name: 'growth', videos_per_month: 4 } };

describe.each(TRANSPORTS)('creator sample review (%s)', (transport) => {
  it('gives a store enrolled with a plan a batch awaiting decision', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sr-1', PLAN);
    const r = await h.call('GET', '/locations/sr-1/creator-samples');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      batch_id: expect.stringMatching(/^bat_/),
      status: 'awaiting_decision',
      created_at: '2026-12-01T09:00:00Z',
    });
    expect(r.body.creators.length).toBeGreaterThan(0);
    for (const c of r.body.creators)
      expect(Object.keys(c).sort()).toEqual(['accepted_at', 'creator_id', 'follower_count', 'handle', 'platforms']);
  });

  it('answers 404 not_found for a store that does not use sample review', async () => {
    const h = await openSandbox(transport);
    await h.enroll('plain-1');
    const r = await h.call('GET', '/locations/plain-1/creator-samples');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });

  it('follows the sampleReview option to decide which stores use review', async () => {
    const h = await openSandbox(transport, { sampleReview: (s) => s.partner_location_id.startsWith('rv-') });
    await h.enroll('rv-1');
    await h.enroll('no-1', PLAN);
    expect((await h.call('GET', '/locations/rv-1/creator-samples')).status).toBe(200);
    expect((await h.call('GET', '/locations/no-1/creator-samples')).status).toBe(404);
  });

  it('approves the current batch and then refuses to decide it again with 409 invalid_state', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sr-1', PLAN);
    const batch = (await h.call('GET', '/locations/sr-1/creator-samples')).body;
    const path = `/locations/sr-1/creator-samples/${batch.batch_id}/decision`;
    const approved = await h.call('POST', path, { body: { decision: 'approve' } });
    expect(approved.body).toEqual({ ...batch, status: 'approved' });
    const again = await h.call('POST', path, { body: { decision: 'approve' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('replaces the batch on new_batch, so a duplicated new_batch visibly creates two', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sr-1', PLAN);
    const first = (await h.call('GET', '/locations/sr-1/creator-samples')).body;
    const second = await h.call('POST', `/locations/sr-1/creator-samples/${first.batch_id}/decision`, {
      body: { decision: 'new_batch' },
    });
    expect(second.body.status).toBe('awaiting_decision');
    expect(second.body.batch_id).not.toBe(first.batch_id);
    const third = await h.call('POST', `/locations/sr-1/creator-samples/${second.body.batch_id}/decision`, {
      body: { decision: 'new_batch' },
    });
    expect(third.status).toBe(200);
    expect(h.sandbox.inspect.sampleBatches(h.key, 'sr-1').map((b) => b.status)).toEqual([
      'replaced',
      'replaced',
      'awaiting_decision',
    ]);
    expect((await h.call('GET', '/locations/sr-1/creator-samples')).body.batch_id).toBe(third.body.batch_id);
    const stale = await h.call('POST', `/locations/sr-1/creator-samples/${first.batch_id}/decision`, {
      body: { decision: 'approve' },
    });
    expect(stale.status).toBe(409);
  });

  it('answers 404 for an unknown batch and 400 for an unknown decision', async () => {
    const h = await openSandbox(transport);
    await h.enroll('sr-1', PLAN);
    const batch = (await h.call('GET', '/locations/sr-1/creator-samples')).body;
    expect(
      (await h.call('POST', '/locations/sr-1/creator-samples/bat_nope/decision', { body: { decision: 'approve' } }))
        .status,
    ).toBe(404);
    const bad = await h.call('POST', `/locations/sr-1/creator-samples/${batch.batch_id}/decision`, {
      body: { decision: 'maybe' },
    });
    expect(bad.body.error).toMatchObject({ code: 'validation_error', field: 'decision' });
  });
});
