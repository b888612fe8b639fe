/**
 * A crash at any byte of a file checkpoint: the file a watcher wrote, cut at a random offset (an
 * append or the first snapshot stopped part-way; a later snapshot is written aside and renamed, so
 * a stray half-written `.tmp` may lie beside it), then a restart. Cut inside the first line, the
 * restart refuses with CheckpointInvalidError and leaves the file as it is; cut anywhere after,
 * it resumes at the first event whose line did not survive whole: none lost, none repeated before
 * it. Random text and JSON files are refused, byte for byte untouched. `FC_NUM_RUNS` for a longer
 * run; fast-check prints the seed on failure, and `FC_SEED` (with `FC_PATH`) replays it.
 */
import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CheckpointInvalidError,
  fileCheckpoint,
  memoryCheckpoint,
  watchEvents,
  type Checkpoint,
  type PartnerEvent,
} from '../../src/events/index.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import { take } from './checkpoint-files.js';
import { startSimEnv, type SimEnv } from './support.js';

const RUNS = fastCheckRuns(25);
const dir = mkdtempSync(join(tmpdir(), 'crp-torn-'));
let n = 0;
const fresh = () => join(dir, `checkpoint-${++n}.json`);

let env: SimEnv;
/** Every event id there is to deliver. */
let all: Set<string>;
/** The file the first watcher wrote, its events, and after each save: the file's size and how many events the loop had finished. */
let written: { text: string; events: PartnerEvent[]; marks: Array<{ size: number; confirmed: number }> };

beforeAll(async () => {
  env = await startSimEnv('msw', { visitsPerWeek: 0 });
  env.sandbox.populate(env.key, { locations: 3, reservationsPerLocation: 4 });
  const total =
    env.sandbox.inspect.reservations(env.key).length +
    env.sandbox.inspect
      .stores(env.key)
      .reduce((sum, s) => sum + env.sandbox.inspect.videos(env.key, s.partner_location_id).length, 0);
  all = new Set((await take(watchEvents(env.client(), { checkpoint: memoryCheckpoint() }), total)).map((e) => e.id));
  expect(all.size).toBe(total);

  const path = fresh();
  const file = fileCheckpoint(path);
  const events: PartnerEvent[] = [];
  const marks: Array<{ size: number; confirmed: number }> = [];
  // The loop finished every event pushed before a save: a record is saved when the loop asks for the next event.
  const watched: Checkpoint = {
    load: () => file.load(),
    save: async (record, options) => {
      await file.save(record, options);
      marks.push({ size: statSync(path).size, confirmed: events.length });
    },
    lock: (options) => file.lock!(options),
  };
  for await (const event of watchEvents(env.client(), { checkpoint: watched })) {
    events.push(event);
    if (events.length === total - 3) break;
  }
  written = { text: readFileSync(path, 'utf8'), events, marks };
  expect(marks.at(-1)?.size).toBe(Buffer.byteLength(written.text));
});

afterAll(async () => {
  await env?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Events of a restart until every id there is was delivered (counting the `confirmed` ones), or
 * until `stopAfter` events (the last of them left unconfirmed, another crash).
 */
async function restart(
  path: string,
  confirmed: Set<string>,
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<PartnerEvent[]> {
  const out: PartnerEvent[] = [];
  const seen = new Set(confirmed);
  for await (const e of watchEvents(env.client(), { checkpoint: fileCheckpoint(path) })) {
    out.push(e);
    seen.add(e.id);
    if (seen.size === all.size || out.length >= stopAfter || out.length > all.size * 2) break;
  }
  return out;
}

/** Cut the written file at `offset` and start again; then, after `stopAfter` events, once more. */
async function cutAt(
  offset: number,
  strayTmp: string | undefined,
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<void> {
  const bytes = Buffer.from(written.text);
  const cut = bytes.subarray(0, offset);
  const path = fresh();
  writeFileSync(path, cut);
  if (strayTmp !== undefined) writeFileSync(`${path}.${process.pid}.tmp`, strayTmp);
  const whole = cut.lastIndexOf(0x0a) + 1;
  if (whole === 0) {
    const error = await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path) }), 1).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CheckpointInvalidError);
    expect(readFileSync(path).equals(cut)).toBe(true);
    return;
  }
  const confirmedCount = Math.max(...written.marks.filter((m) => m.size <= whole).map((m) => m.confirmed));
  const confirmed = written.events.slice(0, confirmedCount).map((e) => e.id);
  const first = await restart(path, new Set(confirmed), stopAfter);
  // The restart after that goes on from the event the first one left unconfirmed.
  const second =
    first.length === stopAfter
      ? await restart(path, new Set([...confirmed, ...first.slice(0, -1).map((e) => e.id)]))
      : [];
  if (second.length > 0) expect(second[0]?.id).toBe(first.at(-1)?.id);
  const ids = [...first.slice(0, second.length > 0 ? -1 : undefined), ...second].map((e) => e.id);
  // Resumes at the first event not confirmed in what survived: nothing before it again, nothing after it skipped.
  if (confirmedCount < written.events.length) expect(ids[0]).toBe(written.events[confirmedCount]?.id);
  expect(ids.filter((id) => confirmed.includes(id))).toEqual([]);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set([...confirmed, ...ids])).toEqual(all);
  expect(existsSync(`${path}.lock`)).toBe(false);
}

describe('a file checkpoint cut at any byte', () => {
  it('resumes with no event lost or repeated before the last unconfirmed one, or refuses a cut first line untouched', {
    timeout: Math.max(120_000, RUNS.numRuns * 3_000),
  }, async () => {
    const length = Buffer.byteLength(written.text);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: length }),
        fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        fc.integer({ min: 1, max: 6 }),
        (offset, stray, stopAfter) => cutAt(offset, stray, stopAfter),
      ),
      RUNS,
    );
  });

  it('the offsets that matter: one byte, the first line without its newline, with it, and the whole file', async () => {
    const first = written.text.indexOf('\n');
    for (const offset of [
      1,
      first,
      first + 1,
      first + 2,
      Buffer.byteLength(written.text) - 1,
      Buffer.byteLength(written.text),
    ])
      await cutAt(offset, undefined, 2);
  });
});

describe('files that are not a checkpoint', () => {
  /** Text or JSON lines; not journal lines of this version (those are a checkpoint written before its first snapshot). */
  const line = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
  );
  const contents = fc
    .tuple(fc.array(line, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([lines, newline]) => lines.join('\n') + (newline ? '\n' : ''))
    .filter((text) => text !== '' && !text.startsWith('[['));

  it('are refused with CheckpointInvalidError, byte for byte untouched, with startFrom now or beginning', {
    timeout: Math.max(60_000, RUNS.numRuns * 1_000),
  }, async () => {
    await fc.assert(
      fc.asyncProperty(contents, fc.constantFrom('now' as const, 'beginning' as const), async (text, startFrom) => {
        const path = fresh();
        writeFileSync(path, text);
        const error = await take(watchEvents(env.client(), { checkpoint: fileCheckpoint(path), startFrom }), 1).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(CheckpointInvalidError);
        expect(readFileSync(path, 'utf8')).toBe(text);
      }),
      { ...RUNS, numRuns: RUNS.numRuns * 4 },
    );
  });
});
