import { describe, expect, it } from 'vitest';
import { isTheRowsStore, readBack } from '../../src/bulk/settle.js';
import {
  AbortedError,
  ConfigurationError,
  TimeoutError,
  UnexpectedResponseError,
  effectInDoubt,
  type Location,
} from '../../src/index.js';
import { address, useSdkEnv, type SdkEnv } from '../helpers/sdk-env.js';

/**
 * The parts settle.test.ts drives through enrollMany, at their edges: which failures leave the
 * write open, what a read-back gives when it is stopped or breaks, and what counts as the row's store.
 */
let env: SdkEnv;
const startSdkEnv = useSdkEnv();

describe('effectInDoubt', () => {
  it('is true for a time-out or an unreadable answer, false for a failure that happened before sending', () => {
    expect(effectInDoubt(new TimeoutError('timed out'))).toBe(true);
    expect(effectInDoubt(new UnexpectedResponseError('garbled', { status: 200, requestId: undefined }))).toBe(true);
    expect(effectInDoubt(new AbortedError('stopped'))).toBe(false);
    expect(effectInDoubt(new ConfigurationError('set up wrongly'))).toBe(false);
  });
});

describe('readBack', () => {
  it('reads with the caller’s signal: a stopped run reads nothing back', async () => {
    env = await startSdkEnv('msw');
    const client = env.client();
    await client.locations.enroll({ partner_location_id: 'rb-1', name: 'Store 1', address: address(1) });
    const read = (id: string, options: { signal?: AbortSignal }) => client.locations.get(id, options).withResponse();
    expect(await readBack(read, 'rb-1', new AbortController().signal)).toHaveProperty(
      'found.data.partner_location_id',
      'rb-1',
    );
    const before = env.sandbox.requests.length;
    const result = await readBack(read, 'rb-1', AbortSignal.abort());
    expect(result).toHaveProperty('failed');
    expect((result as { failed: unknown }).failed).toBeInstanceOf(AbortedError);
    expect(env.sandbox.requests.length).toBe(before);
  });

  it('lets through an error that is not the SDK’s (a bug in the reader) instead of reporting it as a failed read', async () => {
    const bug = new TypeError('reader broke');
    await expect(
      readBack(
        async () => {
          throw bug;
        },
        'x',
        new AbortController().signal,
      ),
    ).rejects.toBe(bug);
  });
});

describe('isTheRowsStore', () => {
  const row = { partner_location_id: 's-1', name: 'Store 1', address: address(1) };
  const stored = (changes: Partial<Location>) =>
    ({ partner_location_id: 's-1', name: 'Store 1', address: address(1), ...changes }) as unknown as Location;

  it('is the row’s store only with the same name and every part of the address the same', () => {
    expect(isTheRowsStore(stored({}), row)).toBe(true);
    expect(isTheRowsStore(stored({ name: 'Store 2' }), row)).toBe(false);
    for (const key of ['line1', 'city', 'state', 'postal_code', 'country'] as const) {
      expect(isTheRowsStore(stored({ address: { ...address(1), [key]: 'other' } } as never), row), key).toBe(false);
    }
  });

  it('is not the row’s store when the store shows no address, and does not throw', () => {
    expect(isTheRowsStore(stored({ address: undefined } as never), row)).toBe(false);
    expect(isTheRowsStore(stored({}), { ...row, address: undefined } as never)).toBe(false);
  });
});
