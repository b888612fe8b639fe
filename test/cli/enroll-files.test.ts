/**
 * `crp enroll` and its files: a report that is the stores file or the --resume report (by name,
 * symlink or hard link) and a report that cannot be written are refused before any call, leaving
 * every file as it was; a stores file in the wrong encoding is refused whole; line numbers of a
 * CRLF file with a quoted line break are right in the report.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADER, enrollEnv, row } from './enroll-env.js';
import { crp, type Finished } from './in-process.js';

const env = enrollEnv('crp-files-');

let n = 0;
function stores(count: number, eol = '\n'): string {
  const prefix = `f${++n}`;
  const path = join(env.dir, `${prefix}.csv`);
  writeFileSync(
    path,
    [HEADER, ...Array.from({ length: count }, (_, i) => row(`${prefix}-${i}`, `Store ${i}`, i))].join(eol) + eol,
  );
  return path;
}
/** Enrollment calls the sandbox got while `run` ran. */
async function posts(run: () => Promise<Finished>): Promise<{ result: Finished; posts: number }> {
  const seq = async () => {
    let after = 0;
    let count = 0;
    for (;;) {
      const page = (await (await fetch(`${env.sandbox.url}/_sandbox/requests?after=${after}&limit=1000`)).json()) as {
        items: Array<{ method: string; path: string }>;
        next_after: number | null;
      };
      count += page.items.filter((r) => r.method === 'POST' && r.path === '/partner/v1/locations').length;
      if (page.next_after === null || page.items.length === 0) return count;
      after = page.next_after;
    }
  };
  const before = await seq();
  const result = await run();
  return { result, posts: (await seq()) - before };
}
/** The refusal: exit 1, one line on stderr, no call. */
async function refused(args: string[], message: string | RegExp): Promise<void> {
  const { result, posts: calls } = await posts(() => crp(['enroll', ...args], env.sandbox.env, env.dir));
  expect(result.code).toBe(1);
  expect(calls).toBe(0);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
}

describe('crp enroll refuses a report that is one of its inputs, before any call', () => {
  it('the stores file itself, a symlink to it, a hard link to it: the file is left whole', async () => {
    const input = stores(50);
    const before = readFileSync(input, 'utf8');
    symlinkSync(input, join(env.dir, 'sym.csv'));
    linkSync(input, join(env.dir, 'hard.csv'));
    await refused(
      [input, '--report', input],
      `crp: --report ${input} is the stores file ${input}: the report would empty it before it is read. Write the report to another file.`,
    );
    await refused([input, '--report', 'sym.csv'], '--report sym.csv is the stores file');
    await refused([input, '--report', 'hard.csv'], '--report hard.csv is the stores file');
    await refused(['hard.csv', '--report', input], `--report ${input} is the stores file hard.csv`);
    expect(readFileSync(input, 'utf8')).toBe(before);
  });

  it('the --resume report by name, symlink or hard link, and two reports that are one file: nothing is emptied', async () => {
    const input = stores(3);
    const first = await crp(['enroll', input, '--report', 'run.jsonl'], env.sandbox.env, env.dir);
    expect(first.code).toBe(0);
    const run = readFileSync(join(env.dir, 'run.jsonl'), 'utf8');
    expect(run.split('\n').filter(Boolean)).toHaveLength(3);
    symlinkSync(join(env.dir, 'run.jsonl'), join(env.dir, 'run-link.jsonl'));
    linkSync(join(env.dir, 'run.jsonl'), join(env.dir, 'run-hard.jsonl'));
    for (const report of ['run.jsonl', './run.jsonl', 'run-link.jsonl', 'run-hard.jsonl']) {
      await refused(
        [input, '--resume', 'run.jsonl', '--report', report],
        `--resume run.jsonl and --report ${report} are the same file`,
      );
    }
    await refused([input, '--resume', 'run-link.jsonl', '--report', 'run.jsonl'], 'are the same file');
    // The resume report named as the stores file cannot be a report either.
    await refused(
      [input, '--report', 'run.jsonl', '--report', 'run-hard.jsonl'],
      '--report run-hard.jsonl is given twice',
    );
    // Two new reports through a symlinked folder.
    mkdirSync(join(env.dir, 'out'));
    symlinkSync(join(env.dir, 'out'), join(env.dir, 'out-link'));
    await refused(
      [input, '--report', 'out/a.csv', '--report', 'out-link/a.csv'],
      '--report out-link/a.csv is given twice',
    );
    expect(existsSync(join(env.dir, 'out/a.csv'))).toBe(false);
    expect(readFileSync(join(env.dir, 'run.jsonl'), 'utf8')).toBe(run);
  });
});

describe('crp enroll checks that every report can be written before any call', () => {
  it('a report in a folder that does not exist: exit 1, no store enrolled, no other report created or emptied', async () => {
    const input = stores(2);
    writeFileSync(join(env.dir, 'kept.jsonl'), '{"line":2}\n');
    await refused(
      [input, '--report', 'new.csv', '--report', 'kept.jsonl', '--report', 'missing/run.jsonl'],
      `crp: cannot write missing/run.jsonl: its folder ${join(env.dir, 'missing')} does not exist (or is not a folder). Create it or name another folder; nothing was sent.`,
    );
    expect(existsSync(join(env.dir, 'new.csv'))).toBe(false);
    expect(readFileSync(join(env.dir, 'kept.jsonl'), 'utf8')).toBe('{"line":2}\n');
    const store = await fetch(`${env.sandbox.url}/partner/v1/locations/${input.replace(/.*\/(f\d+)\.csv$/, '$1')}-0`, {
      headers: { authorization: `Bearer ${env.sandbox.key}` },
    });
    expect(store.status).toBe(404);
  });

  it('a report that is a folder, and a --resume report with a line that is not JSON: refused before any report is opened', async () => {
    const input = stores(2);
    mkdirSync(join(env.dir, 'folder.csv'));
    writeFileSync(join(env.dir, 'other.jsonl'), 'kept\n');
    await refused(
      [input, '--report', 'new2.csv', '--report', 'folder.csv'],
      'crp: cannot open folder.csv: it is a directory.',
    );
    expect(existsSync(join(env.dir, 'new2.csv'))).toBe(false);
    // A report through a link to a file not there yet: the file it created is removed, the link kept.
    symlinkSync(join(env.dir, 'target.jsonl'), join(env.dir, 'dangling.jsonl'));
    await refused(
      [input, '--report', 'dangling.jsonl', '--report', 'folder.csv'],
      'crp: cannot open folder.csv: it is a directory.',
    );
    expect(existsSync(join(env.dir, 'target.jsonl'))).toBe(false);
    expect(lstatSync(join(env.dir, 'dangling.jsonl')).isSymbolicLink()).toBe(true);
    writeFileSync(join(env.dir, 'bad.jsonl'), '{"partner_location_id":"x","status":"created"}\nnot json\n');
    await refused(
      [input, '--resume', 'bad.jsonl', '--report', 'other.jsonl'],
      '--resume bad.jsonl: line 2 is not JSON',
    );
    expect(readFileSync(join(env.dir, 'other.jsonl'), 'utf8')).toBe('kept\n');
  });
});

describe('crp enroll and the bytes of the stores file', () => {
  it('a Latin-1 file is refused whole before any call, naming the line and byte offset; nothing is enrolled as Caf\\ufffd', async () => {
    const path = join(env.dir, 'latin1.csv');
    const text = Buffer.concat([
      Buffer.from(`${HEADER}\n${row('lat-0', 'Fine', 0)}\n`),
      Buffer.from('lat-1,Caf\xe9,1 Congress Ave,Austin,TX,78704,US\n', 'latin1'),
    ]);
    writeFileSync(path, text);
    await refused(
      ['latin1.csv', '--report', 'latin1.jsonl'],
      `crp: latin1.csv is not UTF-8: line 3, byte offset ${text.indexOf(0xe9)} (0xE9) is not UTF-8 text (a file saved as Latin-1 or Windows-1252?). Nothing was sent. Save the file as UTF-8 (in Excel: CSV UTF-8), then run crp enroll again.`,
    );
    expect(existsSync(join(env.dir, 'latin1.jsonl'))).toBe(false);
  });

  it('a CRLF file with a quoted line break: the report names each later row by its own line', async () => {
    const path = join(env.dir, 'crlf.csv');
    writeFileSync(
      path,
      `${[HEADER, row('crlf-0', '"Upstairs\r\nDowntown"', 0), row('crlf-1', 'Fine', 1), 'crlf-2,Bad,USA-row', row('crlf-3', 'Bad country', 3).replace(',US', ',USA')].join('\r\n')}\r\n`,
    );
    const run = await crp(['enroll', 'crlf.csv', '--report', 'crlf.jsonl'], env.sandbox.env, env.dir);
    expect(run.code).toBe(2);
    const lines = readFileSync(join(env.dir, 'crlf.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { line: number; partner_location_id: string });
    expect(Object.fromEntries(lines.map((l) => [l.partner_location_id, l.line]))).toEqual({
      'crlf-0': 2,
      'crlf-1': 4,
      'crlf-2': 5,
      'crlf-3': 6,
    });
  });

  it('a CRLF file with lines appended in an editor (LF) and a CR-only line, quoted line breaks of each kind: every line is a row in the summary and both reports', async () => {
    const path = join(env.dir, 'mixed.csv');
    const text =
      `${HEADER}\r\n${row('mix-0', '"Up\r\nstairs"', 0)}\r\n${row('mix-1', 'Fine', 1)}\r\n` +
      `${row('mix-2', '"Down\nstairs"', 2)}\n${row('mix-3', 'Appended', 3)}\n` +
      `${row('mix-4', '"Side\rdoor"', 4)}\r${row('mix-5', 'Last', 5).replace(',US', ',USA')}\n`;
    writeFileSync(path, text);
    const run = await crp(
      ['enroll', 'mixed.csv', '--report', 'mixed.jsonl', '--report', 'mixed-failures.csv'],
      env.sandbox.env,
      env.dir,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^6 rows: 5 enrolled, 0 already enrolled, 0 skipped \(resumed\), 1 invalid/);
    const lines = readFileSync(join(env.dir, 'mixed.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { line: number; partner_location_id: string });
    expect(Object.fromEntries(lines.map((l) => [l.partner_location_id, l.line]))).toEqual({
      'mix-0': 2,
      'mix-1': 4,
      'mix-2': 5,
      'mix-3': 7,
      'mix-4': 8,
      'mix-5': 10,
    });
    expect(readFileSync(join(env.dir, 'mixed-failures.csv'), 'utf8')).toMatch(
      /\n10,mix-5,invalid,validation_error,address\.country,/,
    );
  });
});
