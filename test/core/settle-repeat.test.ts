import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmbiguousOutcomeError, ConflictError, InternalServerError, type PartnerClient } from '../../src/index.js';
import { address, startSdkEnv, TRANSPORTS, type SdkEnv } from '../helpers/sdk-env.js';

/**
 * creators.decideSamples is repeated after the service's 500 (the spec calls that safe), but a 500
 * may come after the decision was made: the repeat then meets its own effect (409 invalid_state).
 * The SDK reads the current batch back and reports what happened, end to end against the sandbox
 * with a fault that lets the decision take effect and then answers 500 (`when: 'after'`).
 */
describe.each(TRANSPORTS)('a repeated sample decision that met its own effect (%s)', (transport) => {
  let env: SdkEnv;
  let client: PartnerClient;
  let store = 0;
  beforeAll(async () => {
    env = await startSdkEnv(transport);
    client = env.client({ rateLimit: false });
  });
  afterAll(() => env.close());

  /** A new store with sample review, and its first batch. */
  const newStore = async () => {
    const id = `settle-${++store}`;
    await client.locations.enroll({
      partner_location_id: id,
      name: 'S',
      address: address(store),
      plan: { name: 'growth', videos_per_month: 4 },
    });
    return { id, batch: await client.creators.getSamples(id) };
  };
  const decisions = (id: string) =>
    env.sandbox.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path.startsWith(`/partner/v1/locations/${id}/creator-samples/`) &&
        r.path.endsWith('/decision'),
    ).length;
  const actThen500 = (id: string) =>
    env.sandbox.faults.next({
      status: 500,
      when: 'after',
      times: 1,
      pathPattern: `/partner/v1/locations/${id}/creator-samples/*/decision`,
    });

  it('new_batch: the decision took effect under the 500, so the call succeeds with the one new batch', async () => {
    const { id, batch } = await newStore();
    actThen500(id);
    const replacement = await client.creators.decideSamples(id, batch.batch_id, 'new_batch');
    expect(replacement.batch_id).not.toBe(batch.batch_id);
    expect(replacement.status).toBe('awaiting_decision');
    // Sent twice (the 500, then the refused repeat), acted on once: two batches, not three.
    expect(decisions(id)).toBe(2);
    expect(env.sandbox.inspect.sampleBatches(env.key, id).map((b) => b.status)).toEqual([
      'replaced',
      'awaiting_decision',
    ]);
    expect((await client.creators.getSamples(id)).batch_id).toBe(replacement.batch_id);
  });

  it('approve: the batch is approved under the 500, so the call succeeds with it (and .withResponse() works)', async () => {
    const { id, batch } = await newStore();
    actThen500(id);
    const { data, response } = await client.creators.decideSamples(id, batch.batch_id, 'approve').withResponse();
    expect([data.batch_id, data.status]).toEqual([batch.batch_id, 'approved']);
    expect(response.status).toBe(200);
  });

  it('when the state read back is not what the decision produces, throws AmbiguousOutcomeError carrying both errors', async () => {
    const { id, batch } = await newStore();
    // Someone else asked for a new batch; our approve of the old one fails with a 500 and is repeated.
    await client.creators.decideSamples(id, batch.batch_id, 'new_batch');
    env.sandbox.faults.next({ status: 500, times: 1, pathPattern: '*/decision' });
    const error = await client.creators.decideSamples(id, batch.batch_id, 'approve').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    const ambiguous = error as AmbiguousOutcomeError;
    expect(ambiguous.code).toBe('ambiguous_outcome');
    expect(ambiguous.earlier).toBeInstanceOf(InternalServerError);
    expect(ambiguous.repeat).toBeInstanceOf(ConflictError);
    expect(ambiguous.repeat.code).toBe('invalid_state');
    expect(ambiguous.attempts).toBe(2);
    expect(ambiguous.message).toContain('the state read back is not what it produces');
    expect(ambiguous.cause).toBeUndefined();
    expect(ambiguous.message).toMatch(
      /failed with 500 internal_error.*refused with 409 invalid_state.*Check the store's current sample batch \(client\.creators\.getSamples\("settle-\d+"\)\)/,
    );
    expect(ambiguous.message).not.toContain(env.key);
  });

  it('when the read back fails too, the outcome is ambiguous, with the read’s failure as cause', async () => {
    const { id, batch } = await newStore();
    actThen500(id);
    env.sandbox.faults.next({
      status: 404,
      times: 1,
      method: 'GET',
      path: `/partner/v1/locations/${id}/creator-samples`,
    });
    const error = (await client.creators
      .decideSamples(id, batch.batch_id, 'new_batch')
      .catch((e: unknown) => e)) as AmbiguousOutcomeError;
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(error.message).toMatch(/reading the state back failed too \(not_found\)/);
    expect((error.cause as { code?: string }).code).toBe('not_found');
  });

  it('a 409 with no earlier failure is the ConflictError it always was (nothing read back)', async () => {
    const { id, batch } = await newStore();
    await client.creators.decideSamples(id, batch.batch_id, 'approve');
    const reads = env.sandbox.requestCount({ method: 'GET', path: `/partner/v1/locations/${id}/creator-samples` });
    const error = await client.creators.decideSamples(id, batch.batch_id, 'approve').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(env.sandbox.requestCount({ method: 'GET', path: `/partner/v1/locations/${id}/creator-samples` })).toBe(
      reads,
    );
  });

  it('a failure other than 409 once the retries ran out is that failure, with nothing read back', async () => {
    const { id, batch } = await newStore();
    actThen500(id);
    env.sandbox.faults.next({ status: 500, times: 1, pathPattern: '*/decision' });
    const reads = env.sandbox.requestCount({ method: 'GET', path: `/partner/v1/locations/${id}/creator-samples` });
    const error = await env
      .client({ rateLimit: false, maxRetries: 1 })
      .creators.decideSamples(id, batch.batch_id, 'approve')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(env.sandbox.requestCount({ method: 'GET', path: `/partner/v1/locations/${id}/creator-samples` })).toBe(
      reads,
    );
  });

  it('after a 503 (sent before acting) a refused repeat stays a ConflictError', async () => {
    const { id, batch } = await newStore();
    await client.creators.decideSamples(id, batch.batch_id, 'approve');
    env.sandbox.faults.next({ status: 503, times: 1, pathPattern: '*/decision' });
    await expect(client.creators.decideSamples(id, batch.batch_id, 'approve')).rejects.toBeInstanceOf(ConflictError);
  });
});
