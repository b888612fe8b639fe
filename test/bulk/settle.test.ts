/**
 * enrollMany when an enrollment fails after the service may have acted (the sandbox applies the
 * write, then answers 5xx, a gateway page, drops the connection or never answers, on every attempt):
 * the store is read back, and the outcome says what is true.
 */
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InternalServerError,
  NotFoundError,
  TimeoutError,
  type EnrollLocationBody,
  type PartnerClient,
} from '../../src/index.js';
import { enrollMany, type EnrollOutcome, type EnrollRows } from '../../src/bulk/index.js';
import { TRANSPORTS, address, useSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

const POST = { method: 'POST', path: '/partner/v1/locations' };
const store = (n: number, name = `Store ${n}`): EnrollLocationBody => ({
  partner_location_id: `settle-${n}`,
  name,
  address: address(n),
});

let env: SdkEnv;
const startSdkEnv = useSdkEnv();

async function run(client: PartnerClient, rows: EnrollRows) {
  const outcomes: EnrollOutcome[] = [];
  const summary = await enrollMany(client, rows, { concurrency: 1, onOutcome: (o) => void outcomes.push(o) });
  return { summary, byIndex: new Map(outcomes.map((o) => [o.index, o])) };
}

describe.each(TRANSPORTS)(
  'enrollMany settles a failure after the service acted by reading the store, over %s',
  (kind) => {
    it('10 rows, 6 answered 5xx (JSON, gateway pages, empty) on every attempt after the write took effect: all 10 enrolled, the 6 confirmed by a read', async () => {
      env = await startSdkEnv(kind);
      const client = env.client();
      const shapes = [
        { status: 500 },
        { status: 502, body: 'html' },
        { status: 503 },
        { status: 504, body: 'html' },
        { status: 503, body: 'empty' },
        { status: 500 },
      ] as const;
      // Rows 0..5, one at a time: each one's three attempts (the first and both retries) act, then fail.
      for (const shape of shapes) env.sandbox.faults.next({ ...POST, ...shape, when: 'after', times: 3 });
      const rows = Array.from({ length: 10 }, (_, i) => store(i));
      const { summary, byIndex } = await run(client, rows);

      expect(summary.counts).toMatchObject({ created: 4, already_enrolled: 6, failed: 0 });
      for (let i = 0; i < 10; i++) {
        const outcome = byIndex.get(i);
        expect(env.sandbox.inspect.store(env.key, `settle-${i}`)?.name).toBe(`Store ${i}`);
        if (i >= 6) {
          expect(outcome).toMatchObject({ status: 'created', confirmedAfter: undefined });
          continue;
        }
        expect(outcome).toMatchObject({
          status: 'already_enrolled',
          location: { partner_location_id: `settle-${i}`, name: `Store ${i}` },
        });
        if (outcome?.status !== 'already_enrolled') throw new Error('unreachable');
        expect(outcome.confirmedAfter).toBeInstanceOf(InternalServerError);
        expect(outcome.confirmedAfter).toMatchObject({ status: shapes[i]?.status, attempts: 3 });
      }
    });

    it('a dropped connection and a time-out after the write took effect: enrolled, confirmed by a read', async () => {
      env = await startSdkEnv(kind);
      const client = env.client({ maxRetries: 0, timeout: 300 });
      env.sandbox.faults.next({ ...POST, reset: true, when: 'after' });
      env.sandbox.faults.next({ ...POST, hang: true, when: 'after' });
      const { byIndex } = await run(client, [store(0), store(1)]);
      const [reset, hang] = [byIndex.get(0), byIndex.get(1)];
      expect(reset).toMatchObject({ status: 'already_enrolled' });
      expect(reset?.status === 'already_enrolled' && reset.confirmedAfter).toBeInstanceOf(ConnectionError);
      expect(hang).toMatchObject({ status: 'already_enrolled' });
      expect(hang?.status === 'already_enrolled' && hang.confirmedAfter).toBeInstanceOf(TimeoutError);
    });

    it('a 5xx before the service acted: the read finds no store, so the row is failed and not enrolled', async () => {
      env = await startSdkEnv(kind);
      env.sandbox.faults.next({ ...POST, status: 502, body: 'html', times: 3 });
      const { byIndex } = await run(env.client(), [store(0)]);
      const outcome = byIndex.get(0);
      expect(outcome).toMatchObject({ status: 'failed', mayBeEnrolled: false, readError: undefined });
      expect(outcome?.status === 'failed' && outcome.message).toMatch(
        /Reading settle-0 afterwards found no store: it was not enrolled, and enrolling it again is safe\.$/,
      );
      expect(env.sandbox.inspect.store(env.key, 'settle-0')).toBeUndefined();
    });

    it('the read fails too: failed, with both errors, and says the store may exist', async () => {
      env = await startSdkEnv(kind);
      env.sandbox.faults.next({ ...POST, status: 500, when: 'after', times: 3 });
      env.sandbox.faults.next({ method: 'GET', path: '/partner/v1/locations/settle-0', status: 503, times: 3 });
      const { byIndex } = await run(env.client(), [store(0)]);
      const outcome = byIndex.get(0);
      expect(outcome).toMatchObject({ status: 'failed', mayBeEnrolled: true });
      if (outcome?.status !== 'failed') throw new Error('unreachable');
      expect(outcome.error).toMatchObject({ status: 500 });
      expect(outcome.readError).toMatchObject({ status: 503 });
      expect(outcome.message).toContain(outcome.error.message);
      expect(outcome.message).toContain(
        `Whether settle-0 was enrolled is not known: reading it afterwards failed too (${outcome.readError?.message}).`,
      );
      expect(env.sandbox.inspect.store(env.key, 'settle-0')).toBeDefined();
    });

    it('the read finds the id enrolled with another name: a conflict, not "enrolled"', async () => {
      env = await startSdkEnv(kind);
      const client = env.client();
      await client.locations.enroll(store(0, 'Someone Else'));
      env.sandbox.faults.next({ ...POST, status: 504, body: 'html', times: 3 });
      const { byIndex } = await run(client, [store(0)]);
      expect(byIndex.get(0)).toMatchObject({
        status: 'conflict',
        error: undefined,
        conflictsWith: undefined,
        earlierRun: undefined,
      });
      expect(env.sandbox.inspect.store(env.key, 'settle-0')?.name).toBe('Someone Else');
    });

    it('a failure that says the service did not act (a 404) is not read back', async () => {
      env = await startSdkEnv(kind);
      env.sandbox.faults.next({ ...POST, status: 404 });
      const before = env.sandbox.requestCount({ method: 'GET' });
      const { byIndex } = await run(env.client(), [store(0)]);
      expect(byIndex.get(0)).toMatchObject({ status: 'failed', mayBeEnrolled: false, readError: undefined });
      expect(byIndex.get(0)?.status === 'failed' && byIndex.get(0)).toHaveProperty('error', expect.any(NotFoundError));
      expect(env.sandbox.requestCount({ method: 'GET' })).toBe(before);
    });
  },
);
