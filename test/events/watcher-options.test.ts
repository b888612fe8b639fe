/**
 * The watcher's options, refused before any request with a message that says what to change, and
 * the edges of each rule (a share of exactly 1, a fingerprint of exactly 16 hex digits, a store
 * refresh of exactly 100 ms). The interval rules are in options.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, type PartnerClient } from '../../src/index.js';
import { memoryCheckpoint, watchEvents, type Checkpoint, type WatchOptionsWithStores } from '../../src/events/index.js';
import { startSimEnv, type SimEnv } from './support.js';

describe('watchEvents() options', () => {
  let env: SimEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    client = env.client();
  });
  afterAll(() => env.close());

  const refusal = (options: unknown): string => {
    try {
      watchEvents(client, options as WatchOptionsWithStores);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(options)}`);
  };
  const accepts = (options: unknown) =>
    expect(() => watchEvents(client, options as WatchOptionsWithStores)).not.toThrow();

  it('takes every option it names, and names them all when one is unknown', () => {
    accepts({
      checkpoint: memoryCheckpoint(),
      signal: new AbortController().signal,
      startFrom: 'now',
      budgetShare: 1,
      maxLag: 60_000,
      minInterval: 1_000,
      maxInterval: 2_000,
      standby: false,
      previousKeys: [],
      stores: false,
    });
    expect(refusal({ checkpoint: memoryCheckpoint(), pollEvery: 5 })).toBe(
      'watchEvents() has no option "pollEvery". Options: checkpoint, signal, startFrom, budgetShare, maxLag, minInterval, maxInterval, standby, previousKeys, stores.',
    );
    expect(env.sandbox.requests).toHaveLength(0);
  });

  it('needs a checkpoint with load and save', () => {
    const message =
      "watchEvents() needs a checkpoint: fileCheckpoint('./crp-events.json'), memoryCheckpoint(), or your own { load, save }.";
    const save = async () => undefined;
    const load = async () => [];
    for (const checkpoint of [undefined, { save }, { load }, { load: [], save }, { load, save: 'x' }])
      expect(refusal({ checkpoint })).toBe(message);
    accepts({ checkpoint: { load, save } });
  });

  it('standby is a boolean, and needs a checkpoint with a lock', () => {
    const noLock: Checkpoint = { load: async () => [], save: async () => undefined };
    expect(refusal({ checkpoint: memoryCheckpoint(), standby: 'yes' })).toBe(
      'The option standby must be true or false; got "yes".',
    );
    expect(refusal({ checkpoint: noLock, standby: true })).toBe(
      "The option standby waits for the checkpoint's lock, and this checkpoint has none: use redisCheckpoint() " +
        '(@crp/partner-sdk/redis), fileCheckpoint() or a checkpoint with lock().',
    );
    accepts({ checkpoint: noLock, standby: false });
    accepts({ checkpoint: memoryCheckpoint(), standby: true });
  });

  it("startFrom is 'beginning' or 'now'", () => {
    expect(refusal({ checkpoint: memoryCheckpoint(), startFrom: 'yesterday' })).toBe(
      `The option startFrom must be 'beginning' or 'now'; got "yesterday".`,
    );
    accepts({ checkpoint: memoryCheckpoint(), startFrom: 'beginning' });
    accepts({ checkpoint: memoryCheckpoint(), startFrom: 'now' });
  });

  it('previousKeys lists fingerprints of exactly 16 lower-case hex digits', () => {
    accepts({ checkpoint: memoryCheckpoint(), previousKeys: ['0123456789abcdef', 'fedcba9876543210'] });
    const lead =
      'The option previousKeys lists key fingerprints (16 hex digits, client.keyFingerprint of a client with that key; never the key itself); got ';
    for (const key of [
      '0123456789abcde',
      '0123456789abcdef0',
      'x0123456789abcdef',
      '0123456789abcdefx',
      '0123456789ABCDEF',
      7,
    ])
      expect(refusal({ checkpoint: memoryCheckpoint(), previousKeys: ['0123456789abcdef', key] })).toBe(
        `${lead}2 item(s), not all fingerprints.`,
      );
    expect(refusal({ checkpoint: memoryCheckpoint(), previousKeys: '0123456789abcdef' })).toBe(`${lead}string.`);
  });

  it('budgetShare is a number above 0 and at most 1', () => {
    for (const budgetShare of [1, 0.000_1, 0.5]) accepts({ checkpoint: memoryCheckpoint(), budgetShare });
    for (const budgetShare of [0, -0.5, 1.000_001, Number.NaN, '0.5'])
      expect(refusal({ checkpoint: memoryCheckpoint(), budgetShare })).toBe(
        `The option budgetShare must be a number above 0 and at most 1 (a share of the key's budget); got ${String(budgetShare)}.`,
      );
  });

  it('stores is true, false or { refreshMs of at least 100, onUnchanged }', () => {
    for (const stores of [
      true,
      false,
      {},
      { refreshMs: 100 },
      { onUnchanged: () => {} },
      { refreshMs: 1e9, onUnchanged: () => {} },
    ])
      accepts({ checkpoint: memoryCheckpoint(), stores });
    for (const stores of [
      0,
      'yes',
      null,
      { refreshMs: 99.9 },
      { refreshMs: Number.POSITIVE_INFINITY },
      { refreshMs: '1000' },
      { onUnchanged: 'log' },
    ])
      expect(refusal({ checkpoint: memoryCheckpoint(), stores })).toBe(
        'The option stores is true, false or { refreshMs, onUnchanged } (how often each store record is read again, in ' +
          `milliseconds, at least 100; a function told of each read that found a store unchanged); got ${JSON.stringify(stores)}.`,
      );
  });
});
