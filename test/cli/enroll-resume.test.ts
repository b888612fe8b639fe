/**
 * `crp enroll --resume REPORT.jsonl`: a last line that a crash cut short is left out and told; any
 * other line that is not a record `crp enroll` writes refuses the report, naming the line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SetupError } from '../../src/cli/command.js';
import { readResume } from '../../src/cli/enroll-resume.js';
import { HEADER, enrollEnv, jsonLines, row } from './enroll-env.js';
import { crp } from './in-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'crp-resume-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
function report(text: string): string {
  const path = join(scratch, `r${++n}.jsonl`);
  writeFileSync(path, text);
  return path;
}
async function read(path: string): Promise<{ records: unknown[]; torn: number[] }> {
  const records: unknown[] = [];
  const torn: number[] = [];
  for await (const r of readResume(path, { cwd: process.cwd(), onTornLine: (line) => torn.push(line) }))
    records.push(r);
  return { records, torn };
}

const HASH = 'a'.repeat(64);
const good = (id: string) =>
  JSON.stringify({ line: 2, partner_location_id: id, status: 'created', content_hash: HASH });

describe('reading a --resume report', () => {
  it('a last line cut short (no line break after it): the lines before it are used, and the torn line is told', async () => {
    const full = `${good('a')}\n${good('b')}\n${good('c')}\n`;
    const { records, torn } = await read(report(full.slice(0, -20)));
    expect(records).toEqual([
      { partner_location_id: 'a', status: 'created', contentHash: HASH },
      { partner_location_id: 'b', status: 'created', contentHash: HASH },
    ]);
    expect(torn).toEqual([3]);
  });

  it('a line that is not JSON anywhere else, or a last one that ends with its line break, refuses the report naming it', async () => {
    await expect(read(report(`${good('a')}\nnot json\n${good('c')}\n`))).rejects.toThrow(/line 2 is not JSON/);
    await expect(read(report(`${good('a')}\n{"partner_location_id":"b","sta\n`))).rejects.toThrow(/line 2 is not JSON/);
    await expect(read(report(`${good('a')}\r\n{"partner_location_id":"b","sta\r\n`))).rejects.toThrow(
      /line 2 is not JSON/,
    );
  });

  it.each<[string, unknown, RegExp]>([
    ['an array', [1, 2], /not a JSON object/],
    ['a number', 42, /not a JSON object/],
    ['null', null, /not a JSON object/],
    [
      'no status',
      { partner_location_id: 'x', content_hash: HASH },
      /status missing; it is one of created, already_enrolled/,
    ],
    ['a status crp never writes', { partner_location_id: 'x', status: 'done', content_hash: HASH }, /status "done"/],
    [
      'an id that is not a string',
      { partner_location_id: 7, status: 'created', content_hash: HASH },
      /partner_location_id 7 is not a string/,
    ],
    [
      'an enrolled row without an id',
      { status: 'created', content_hash: HASH },
      /a created row without partner_location_id/,
    ],
    [
      'a hash that is not a string',
      { partner_location_id: 'x', status: 'created', content_hash: 42 },
      /content_hash 42 is not 64 hex digits/,
    ],
    [
      'a hash cut short',
      { partner_location_id: 'x', status: 'created', content_hash: 'abc' },
      /content_hash "abc" is not 64 hex digits/,
    ],
  ])('a record of the wrong shape (%s) refuses the report, naming its line', async (_, record, why) => {
    const path = report(`${good('a')}\n${JSON.stringify(record)}\n${good('c')}\n`);
    const refusal = read(path);
    await expect(refusal).rejects.toBeInstanceOf(SetupError);
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `^--resume ${path}: line 2 is not a record crp enroll writes \\(.*${why.source}.*\\)\\. Nothing was sent\\.`,
      ),
    );
  });

  it('takes what crp enroll writes: every status, a bad row without id, a report older than content_hash, blank lines', async () => {
    const lines = [
      good('a'),
      JSON.stringify({ line: 3, status: 'invalid', code: 'bad_row', message: 'the row has 3 fields' }),
      JSON.stringify({ line: 4, partner_location_id: 'old', status: 'created' }),
      '',
      ...['already_enrolled', 'skipped', 'invalid', 'conflict', 'failed', 'not_attempted'].map((status) =>
        JSON.stringify({ partner_location_id: status, status, content_hash: HASH }),
      ),
    ];
    const { records, torn } = await read(report(`${lines.join('\n')}\n`));
    expect(records).toHaveLength(9);
    expect(records[2]).toEqual({ partner_location_id: 'old', status: 'created', contentHash: undefined });
    expect(torn).toEqual([]);
  });
});

describe('crp enroll --resume with a torn report', () => {
  const env = enrollEnv('crp-resume-');

  it("goes on from the good lines, says so on stderr, and sends the torn line's row again", {
    timeout: 60_000,
  }, async () => {
    const stores = join(env.dir, 'stores.csv');
    writeFileSync(
      stores,
      `${[HEADER, row('torn-0', 'Zero', 0), row('torn-1', 'One', 1), row('torn-2', 'Two', 2)].join('\n')}\n`,
    );
    const first = await crp(['enroll', stores, '--report', join(env.dir, 'first.jsonl')], env.sandbox.env, env.dir);
    expect(first.code).toBe(0);
    const text = readFileSync(join(env.dir, 'first.jsonl'), 'utf8');
    writeFileSync(join(env.dir, 'first.jsonl'), text.slice(0, text.length - 15));
    const again = await crp(
      ['enroll', stores, '--resume', 'first.jsonl', '--report', 'second.jsonl', '--json'],
      env.sandbox.env,
      env.dir,
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      'crp: --resume first.jsonl: its last line (line 3) was cut short, as by a run that crashed while writing it. The 2 lines before it are used; the row of that line is sent again.\n',
    );
    expect(JSON.parse(again.stdout)).toMatchObject({
      rows: 3,
      counts: { skipped: 2, already_enrolled: 1, created: 0 },
    });
    expect(jsonLines(join(env.dir, 'second.jsonl'))).toHaveLength(3);
  });
});
