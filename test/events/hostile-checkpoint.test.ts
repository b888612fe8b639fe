/**
 * Checkpoints the watcher did not write as they are: a last line torn by a power loss or a full
 * disk (cut off before the next line is added, so it never becomes a damaged middle line), a
 * damaged middle or first line, files that are no checkpoint at all, and records of the wrong
 * shape from any checkpoint (file, memory, your own). Everything refused is refused with
 * CheckpointInvalidError before any request, and the file is left byte for byte as it was.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckpointInvalidError,
  fileCheckpoint,
  memoryCheckpoint,
  watchEvents,
  type Checkpoint,
} from '../../src/events/index.js';
import { packBooking } from '../../src/events/bookings.js';
import { checkpointFiles, take } from './checkpoint-files.js';
import { startSimEnv, useSimEnv, type SimEnv } from './support.js';

const { dir, fresh } = checkpointFiles('crp-hostile-');

const REFUSED =
  /^The checkpoint is not one this version's event watcher can go on from: .+\. Nothing was changed\. .*give the watcher a checkpoint of its own.*delete it, and the watcher starts again as set by startFrom\.$/s;

describe('a torn last line', () => {
  let env: SimEnv;
  const startEach = useSimEnv();

  it('is cut off before the next start adds a line, so every later start goes on with nothing lost and nothing repeated', async () => {
    env = await startEach('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 5 });
    const client = env.client();
    const total =
      env.sandbox.inspect.reservations(env.key).length +
      env.sandbox.inspect
        .stores(env.key)
        .reduce((sum, s) => sum + env.sandbox.inspect.videos(env.key, s.partner_location_id).length, 0);
    const path = fresh();
    const first = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 6);
    // Power lost in the middle of adding the 6th event's line.
    appendFileSync(path, '[["b","torn-1","0|p');
    const second = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), 3);
    expect(second[0]?.id).toBe(first[5]?.id);
    expect(readFileSync(path, 'utf8')).not.toContain('torn-1');
    // The start after that reads a whole file: on it goes, from the event left unconfirmed.
    const third = await take(watchEvents(client, { checkpoint: fileCheckpoint(path) }), total - 7);
    expect(third[0]?.id).toBe(second[2]?.id);
    const ids = [...first.slice(0, 5), ...second.slice(0, 2), ...third].map((e) => e.id);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toHaveLength(total);
  });

  it('is cut off by the first line added, also when nothing was loaded before', async () => {
    const path = fresh();
    writeFileSync(path, '{"a":1}\n["x"]\n["y", "cut sh');
    const checkpoint = fileCheckpoint(path);
    await checkpoint.save('["z"]');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n["x"]\n["z"]\n');
    await checkpoint.save('["w"]');
    expect(await checkpoint.load()).toEqual(['{"a":1}', '["x"]', '["z"]', '["w"]']);
  });

  it('is the only line left out: a file whose only line has no newline is refused, and left as it is', async () => {
    const path = fresh();
    const cut = '{"format":"crp-events/1","month":"2026-11","tail":{"cur';
    writeFileSync(path, cut);
    const error = await fileCheckpoint(path)
      .load()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect((error as Error).message).toMatch(
      /holds no complete line: it is not a checkpoint, or its first line was cut/,
    );
    await expect(fileCheckpoint(path).save('["x"]')).rejects.toBeInstanceOf(CheckpointInvalidError);
    expect(readFileSync(path, 'utf8')).toBe(cut);
  });
});

describe('a damaged or foreign file', () => {
  let env: SimEnv;
  beforeAll(async () => {
    env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 2, reservationsPerLocation: 2 });
  });
  afterAll(() => env?.close());

  /** A whole checkpoint the watcher wrote: its snapshot and two journal lines. */
  async function written(): Promise<string> {
    const path = fresh();
    await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 3);
    const text = readFileSync(path, 'utf8');
    rmSync(path);
    expect(text.split('\n')).toHaveLength(4);
    return text;
  }

  it.each<[string, (whole: string) => string, RegExp]>([
    ['a plain text file', () => 'Remember to water the plants.\nAnd feed the cat.\n', /line 1 is not JSON/],
    ['a plain text file of one line', () => 'Remember to water the plants.', /no complete line/],
    [
      'a file of JSON-array lines',
      () => '[1,2,3]\n["a","b"]\n',
      /line 1, record 1 is not a record this version writes \(1\)/,
    ],
    [
      "another program's JSON",
      () => '{"name":"my-app","version":"1.0.0"}\n',
      /line 1 is not a snapshot of the event watcher \(crp-events\/1\)/,
    ],
    ['an empty JSON list', () => '[]\n', /line 1 is an empty list/],
    ['a checkpoint with a damaged middle line', (whole) => whole.replace('\n', '\n{"oops": \n'), /line 2 is not JSON/],
    [
      'a checkpoint with its first line cut, then whole lines',
      (whole) => whole.slice(0, 40) + whole.slice(whole.indexOf('\n')),
      /line 1 is not JSON/,
    ],
    [
      'a checkpoint whose first line lost its newline',
      (whole) => whole.slice(0, whole.indexOf('\n')) + whole.slice(whole.indexOf('\n') + 1),
      /line 1 is not JSON/,
    ],
    [
      'a second snapshot after the journal',
      (whole) => whole + whole.slice(0, whole.indexOf('\n') + 1),
      /line 4 is a second snapshot/,
    ],
  ])(
    '%s is refused before any request (also with startFrom now) and left byte for byte as it was',
    async (_, make, why) => {
      const contents = make(await written());
      const path = fresh();
      writeFileSync(path, contents);
      const before = env.sandbox.requests.length;
      for (const startFrom of ['now', 'beginning'] as const) {
        const error = await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path), startFrom }), 1).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(CheckpointInvalidError);
        expect(error).toMatchObject({ code: 'checkpoint_invalid', message: expect.stringMatching(REFUSED) });
        expect((error as Error).message).toMatch(why);
      }
      expect(readFileSync(path, 'utf8')).toBe(contents);
      expect(readdirSync(dir).filter((f) => f.startsWith(path.slice(dir.length + 1)))).toEqual([
        path.slice(dir.length + 1),
      ]);
      expect(env.sandbox.requests.length).toBe(before);
    },
  );

  it('reads a checkpoint written before its first snapshot (journal lines only), and writes one at the next save', async () => {
    const whole = await written();
    const path = fresh();
    writeFileSync(path, whole.slice(whole.indexOf('\n') + 1));
    const [event] = await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 1);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(event).toBeDefined();
    expect(JSON.parse(lines[0] as string)).toMatchObject({ format: 'crp-events/1' });
  });

  const snapshot = {
    format: 'crp-events/1',
    month: '2026-11',
    tail: { cursor: null, seen: 1 },
    fullAt: 1_790_000_000_000,
    stores: ['store-1'],
    bookings: { r1: packBooking({ store: 0, status: 'confirmed', ack: null, visit: 29_000_000 }) },
    videos: { 0: '1|1|0' },
  };
  const withSnapshot = (over: Record<string, unknown>) => JSON.stringify({ ...snapshot, ...over });
  const journal = (...records: unknown[]) => [JSON.stringify(snapshot), JSON.stringify(records)];

  it.each<[string, string[]]>([
    ['a record of the wrong arity', journal(['b', 'r2'])],
    ['a record with a value of the wrong type', journal(['b', 5, '0|p||'])],
    ['a negative position', journal(['t', 'c', -1])],
    ['a fractional position', journal(['t', 'c', 1.5])],
    ['a time out of range', [JSON.stringify(snapshot), '[["f", 1e999]]']],
    ['a time that is text', journal(['f', '2026-11-25'])],
    ['a video count that is not a number', journal(['v', 0, 'x|1|2'])],
    ['video counts cut short', journal(['v', 0, '1|2'])],
    ['a booking whose store is not base 36', journal(['b', 'r2', 'ZZ|p||'])],
    ['a booking whose escaped value is broken', journal(['b', 'r2', '0|~%E0%A4%A||'])],
    ['a booking of a store no record added', journal(['b', 'r2', '7|p||'])],
    ['video counts of a store no record added', journal(['v', 3, '1|0|0'])],
    ['a record kind this version does not know', journal(['z', 1])],
    ['a month that is none', journal(['m', '2026-13'])],
    ['a record that is not a list', journal(42)],
    ['a snapshot whose stores are text', [withSnapshot({ stores: 'abc' })]],
    ['a snapshot without its tail', [JSON.stringify({ ...snapshot, tail: undefined })]],
    ['a snapshot whose bookings are a list', [withSnapshot({ bookings: [] })]],
    ['a snapshot counting videos of a store by name', [withSnapshot({ videos: { x: '1|0|0' } })]],
    ['a snapshot with a field this version does not know', [withSnapshot({ extra: true })]],
    [
      'a snapshot whose key is the key itself',
      [withSnapshot({ key: 'crp_test_secret', service: 'https://sandbox.crp.test' })],
    ],
  ])('%s is refused with CheckpointInvalidError, from a memory checkpoint and your own', async (_, lines) => {
    const memory = memoryCheckpoint();
    for (const [i, line] of lines.entries()) await memory.save(line, { replace: i === 0 });
    const saved: string[] = [];
    const own: Checkpoint = { load: async () => [...lines], save: async (record) => void saved.push(record) };
    for (const checkpoint of [memory, own]) {
      const error = await take(watchEvents(env.client(), { checkpoint, startFrom: 'now' }), 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointInvalidError);
      expect((error as Error).message).toMatch(REFUSED);
    }
    expect(await memory.load()).toEqual(lines);
    expect(saved).toEqual([]);
  });
});
