/**
 * Whose checkpoint it is: the snapshot names the key (by its fingerprint, never the key) and the
 * service it was written for, and a watcher of another key or service refuses it, saying which
 * differs and what to do. Snapshots written before they named either are read, and name both from
 * the next snapshot on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError, fileCheckpoint, memoryCheckpoint, watchEvents } from '../../src/events/index.js';
import { WatchState } from '../../src/events/state.js';
import { checkpointFiles, take } from './checkpoint-files.js';
import { useSimEnv, type SimEnv } from './support.js';

const { fresh } = checkpointFiles('crp-identity-');

describe('the key and service a checkpoint belongs to', () => {
  let env: SimEnv;
  const startSimEnv = useSimEnv();

  it("names the key's fingerprint (never the key) and the service in its snapshot", async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const client = env.client();
    const path = fresh();
    await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 2);
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text.split('\n')[0] as string)).toMatchObject({
      key: client.keyFingerprint,
      service: 'https://sandbox.crp.test',
    });
    expect(client.keyFingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(text).not.toContain(env.key);
    expect(text).not.toContain(env.key.slice('crp_test_'.length));
  });

  it("refuses another key's checkpoint (another account, or another key of the same one), leaving it as it is", async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
    const path = fresh();
    await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 2);
    const before = readFileSync(path, 'utf8');
    const requests = env.sandbox.requests.length;
    for (const apiKey of [env.sandbox.issueKey(), env.sandbox.issueKey({ account: env.key })]) {
      const error = await take(
        watchEvents(env.client({ apiKey }), { checkpoint: fileCheckpoint(path), startFrom: 'now' }),
        1,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointInvalidError);
      const saved = env.client().keyFingerprint;
      const mine = env.client({ apiKey }).keyFingerprint;
      expect((error as Error).message).toMatch(
        /^The checkpoint belongs to another API key \(saved under the key with fingerprint [0-9a-f]{16}; this client's is [0-9a-f]{16}\): .*Nothing was changed\. Give this watcher a checkpoint of its own \(a new path or key\), or delete this one to sync from the start/,
      );
      expect((error as Error).message).toContain(`fingerprint ${saved}; this client's is ${mine}`);
      expect((error as Error).message).toContain(`pass previousKeys: ['${saved}']`);
      expect((error as Error).message).not.toContain(apiKey);
      expect((error as Error).message).not.toContain(env.key);
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(env.sandbox.requests.length).toBe(requests);
  });

  it("goes on from a rotated key's checkpoint named in previousKeys, with no event lost or repeated, and saves under the new key from then on", async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const path = fresh();
    const first = await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 4);
    const rotated = env.client({ apiKey: env.sandbox.issueKey({ account: env.key }) });
    const old = env.client().keyFingerprint;
    const unrelated = env.client({ apiKey: env.sandbox.issueKey() }).keyFingerprint;
    // Another fingerprint in the list does not open the door.
    const refused = await take(
      watchEvents(rotated, { checkpoint: fileCheckpoint(path), previousKeys: [unrelated] }),
      1,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckpointInvalidError);
    const rest = await take(watchEvents(rotated, { checkpoint: fileCheckpoint(path), previousKeys: [old] }), 3);
    // The event the first loop broke on was never confirmed, so it comes again; nothing else does.
    expect(rest[0]?.id).toBe(first[3]?.id);
    expect(new Set([...first, ...rest].map((e) => e.id)).size).toBe(6);
    expect(rest.every((e) => e.type === 'reservation.created')).toBe(true);
    // The rotation was written down at once: the new key alone reads the checkpoint from now on.
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[0] as string)).toMatchObject({
      key: rotated.keyFingerprint,
    });
    await expect(
      WatchState.load(fileCheckpoint(path), { key: rotated.keyFingerprint, service: rotated.baseUrl }),
    ).resolves.toBeInstanceOf(WatchState);
    await expect(WatchState.load(fileCheckpoint(path), { key: old, service: rotated.baseUrl })).rejects.toBeInstanceOf(
      CheckpointInvalidError,
    );
  });

  it('refuses previousKeys that are not fingerprints (a key given by mistake is never kept)', async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    for (const previousKeys of [[env.key], 'abc', [42], ['ABCDEF0123456789']]) {
      let error: unknown;
      try {
        watchEvents(env.client(), { checkpoint: memoryCheckpoint(), previousKeys: previousKeys as string[] });
      } catch (e) {
        error = e;
      }
      expect((error as Error).name).toBe('ConfigurationError');
      expect((error as Error).message).not.toContain(env.key);
    }
  });

  it("refuses another service's checkpoint, naming both", async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2 });
    const checkpoint = memoryCheckpoint();
    await take(watchEvents(env.client(), { checkpoint }), 2);
    const other = env.client({ baseUrl: 'https://staging.crp.test/partner-api' });
    expect(other.baseUrl).toBe('https://staging.crp.test/partner-api');
    const error = await take(watchEvents(other, { checkpoint }), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect((error as Error).message).toMatch(
      /^The checkpoint belongs to another service \(base URL\) \(https:\/\/sandbox\.crp\.test, this client: https:\/\/staging\.crp\.test\/partner-api\)/,
    );
  });

  it('reads a snapshot that names neither, and names both from the next snapshot on', async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 3 });
    const client = env.client();
    const path = fresh();
    const first = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 3);
    const [head = '', ...journal] = readFileSync(path, 'utf8').split('\n');
    const {
      key: _key,
      service: _service,
      seenAt: _seenAt,
      resets: _resets,
      ...older
    } = JSON.parse(head) as Record<string, unknown>;
    writeFileSync(path, [JSON.stringify(older), ...journal].join('\n'));
    const rest = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 2);
    expect(rest[0]?.id).toBe(first[2]?.id);

    const state = await WatchState.load(fileCheckpoint(path), { key: client.keyFingerprint, service: client.baseUrl });
    await state.compact(fileCheckpoint(path), true);
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[0] as string)).toMatchObject({
      key: client.keyFingerprint,
      service: client.baseUrl,
    });
  });
});
