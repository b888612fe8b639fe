import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crp, serveSandbox, startCrp, until } from './in-process.js';
import {
  ROOT,
  bundled,
  crp as childCrp,
  spawnCrp,
  startCrpSandbox,
  type CrpSandbox,
  type Finished,
} from './processes.js';

const SAMPLE = join(ROOT, 'examples/data/stores.csv');
const HEADER = 'partner_location_id,name,line1,city,state,postal_code,country';
const ESCAPES = /\r|\x1b\[/; // a redrawn bar: not for logs

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crp-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (text: string) => text.split('\n').filter(Boolean);

/** Resolves once the child has written a whole line to stdout; fails after 30 s with what it wrote. */
function firstLine(child: ChildProcess, problem: string): Promise<void> {
  let seen = '';
  return new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${problem}:\n${seen}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('\n')) {
        clearTimeout(timer);
        done();
      }
    });
  });
}
const jsonLines = (path: string) =>
  lines(readFileSync(path, 'utf8')).map((l) => JSON.parse(l) as Record<string, unknown>);
function storesCsv(name: string, count: number, prefix: string): string {
  const path = join(dir, name);
  const rows = Array.from(
    { length: count },
    (_, i) => `${prefix}-${i},Store ${i},${i} Congress Ave,Austin,TX,78704,US`,
  );
  writeFileSync(path, `${HEADER}\n${rows.join('\n')}\n`);
  return path;
}
/** Nothing a command prints may contain the key. */
function expectNoKey(run: Finished, key: string): void {
  expect(run.stdout).not.toContain(key);
  expect(run.stderr).not.toContain(key);
}

/** Every module a file loads, following relative imports. */
function importGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const m of readFileSync(entry, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1] as string;
    if (spec.startsWith('.')) importGraph(join(dirname(entry), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(spec);
  }
  return seen;
}

describe('the libraries of the crp command', () => {
  it('are loaded by the command only, never by the SDK entry', () => {
    const sdk = [...importGraph(join(ROOT, 'src/index.ts'))];
    expect(sdk.filter((m) => /csv-parse|csv-stringify|cli-progress|\/cli\//.test(m))).toEqual([]);
    const command = [...importGraph(join(ROOT, 'src/cli/crp.ts'))];
    expect(command).toEqual(expect.arrayContaining(['csv-parse', 'csv-stringify/sync', 'cli-progress']));
  });
});

describe('crp against crp-sandbox (in process, a child where a process is the point)', () => {
  let sandbox: CrpSandbox;
  beforeAll(async () => {
    // Time flows (10 simulated hours every 40 ms) so that enrolled stores get bookings to export.
    sandbox = await startCrpSandbox(['--advance-every-ms', '40', '--advance-minutes', '600']);
  }, 30_000);
  afterAll(() => sandbox?.stop());

  it('has --help on every command, each with an example, and exit 1 for what it cannot run', {
    timeout: 60_000,
  }, async () => {
    for (const args of [
      ['--help'],
      ['enroll', '--help'],
      ['bookings', 'export', '--help'],
      ['billing', 'export', '--help'],
      ['events', 'tail', '--help'],
      ['summary', '--help'],
    ]) {
      const run = await crp(args, {});
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: crp/);
      expect(run.stdout).toContain('Example:');
    }
    // The bundled bin, as a shell runs it: the exit code is the process's.
    const unknown = await childCrp(['enroll-all'], sandbox.env);
    expect(unknown.code).toBe(1);
    const summary = await childCrp(['summary', '--json'], sandbox.env);
    expect(summary.code).toBe(0);
    expect(JSON.parse(summary.stdout)).toHaveProperty('generated_at');
    expect(unknown.stderr).toContain('unknown command "enroll-all"');

    // What is missing is not a mistake in the arguments: one line that says what to do, no usage.
    const missing = join(dir, 'no-such.csv');
    const noEnv = { PATH: process.env.PATH };
    const [noKey, noAddress, noFileArgument, noFile, relative, directory, noResume, noOutDir] = await Promise.all([
      crp(['enroll', SAMPLE], { ...noEnv, PARTNER_API_BASE_URL: sandbox.url }),
      crp(['summary'], { ...noEnv, PARTNER_API_KEY: sandbox.key }),
      crp(['enroll'], sandbox.env),
      crp(['enroll', missing], sandbox.env),
      crp(['enroll', 'no-such.csv'], sandbox.env, dir),
      crp(['enroll', dir], sandbox.env),
      // The report is read before any row is sent, so the sample is not enrolled here.
      crp(['enroll', SAMPLE, '--resume', join(dir, 'no-such.jsonl')], sandbox.env, dir),
      crp(['bookings', 'export', '--out', join(dir, 'no-dir', 'b.csv')], sandbox.env),
    ]);
    expect(noKey).toEqual({
      code: 1,
      stdout: '',
      stderr: 'crp: No API key: set PARTNER_API_KEY (or pass --api-key).\n',
    });
    expect(noAddress).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'crp: No service address: set PARTNER_API_BASE_URL (or pass --base-url), e.g. http://127.0.0.1:4010 for crp-sandbox.\n',
    });
    expect(noFileArgument).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'crp: crp enroll needs the CSV file of stores: crp enroll STORES.csv (crp enroll --help lists its columns).\n',
    });
    expect(noFile).toEqual({
      code: 1,
      stdout: '',
      stderr: `crp: cannot open ${missing}: no such file or directory. Check the path.\n`,
    });
    expect(relative.stderr).toBe(
      `crp: cannot open no-such.csv: no such file or directory. Check the path (relative to ${dir}).\n`,
    );
    expect(directory.stderr).toBe(`crp: cannot open ${dir}: it is a directory. Check the path.\n`);
    expect(noResume.code).toBe(1);
    expect(noResume.stderr.split('\n').filter((l) => l.startsWith('crp: '))).toEqual([
      `crp: cannot open ${join(dir, 'no-such.jsonl')}: no such file or directory. Check the path.`,
    ]);
    expect(noResume.stderr).not.toContain('Usage:');
    expect(noOutDir).toEqual({
      code: 1,
      stdout: '',
      stderr: `crp: cannot open ${join(dir, 'no-dir', 'b.csv')}: no such file or directory. Check the path.\n`,
    });

    const [wrongKey, wrongKeyText] = await Promise.all([
      crp(['summary', '--json'], { ...sandbox.env, PARTNER_API_KEY: 'crp_test_wrong' }),
      crp(['summary'], { ...sandbox.env, PARTNER_API_KEY: 'crp_test_wrong' }),
    ]);
    expect(wrongKey.code).toBe(1);
    expect(JSON.parse(wrongKey.stderr)).toMatchObject({
      error: { name: 'AuthenticationError', code: 'unauthorized', status: 401 },
    });
    expect(wrongKey.stderr).not.toContain('crp_test_wrong');
    // The request id, once: the service's error message already names it.
    const requestId = (JSON.parse(wrongKey.stderr) as { error: { requestId: string } }).error.requestId;
    expect(wrongKeyText.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(wrongKeyText.stderr.match(/req_[0-9a-f]+/g)).toHaveLength(1);
    expect(requestId).toMatch(/^req_/);

    const badHeader = join(dir, 'bad-header.csv');
    writeFileSync(badHeader, 'id,name\nx,y\n');
    const refused = await crp(['enroll', badHeader], sandbox.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown column id');
    expectNoKey(refused, sandbox.key);
  });

  it('enroll: exit 2 with both reports, plain progress lines, then resumes from its .jsonl report', async () => {
    const failures = join(dir, 'failures.csv');
    const report = join(dir, 'run.jsonl');
    const run = await crp(['enroll', SAMPLE, '--report', failures, '--report', report], sandbox.env, dir);
    expect(run.code).toBe(2);
    expectNoKey(run, sandbox.key);
    expect(run.stdout).toMatch(
      /^12 rows: 7 enrolled, 0 already enrolled, 0 skipped \(resumed\), 4 invalid, 1 conflicts, 0 failed, 0 not attempted/,
    );
    expect(run.stdout).toMatch(/line 7 {2}pdx-alberta-06 {2}invalid validation_error address\.country: /);
    // Not a terminal: plain lines, no bar redrawn in place.
    expect(run.stderr).toMatch(/^12\/12 rows \(100%\), [\d.]+ rows\/s, 5 not enrolled$/m);
    expect(run.stderr).not.toMatch(ESCAPES);

    const csvRows = parse(readFileSync(failures, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(csvRows.map((r) => r.line).sort()).toEqual(expect.arrayContaining(['11', '7', '8', '9']));
    expect(csvRows).toHaveLength(5);
    const byLine = new Map(csvRows.map((r) => [r.line, r]));
    expect(byLine.get('7')).toMatchObject({
      partner_location_id: 'pdx-alberta-06',
      status: 'invalid',
      code: 'validation_error',
      field: 'address.country',
    });
    expect(byLine.get('9')).toMatchObject({ partner_location_id: 'chi-clark-08', field: 'preferred_language' });
    expect(byLine.get('11')).toMatchObject({
      partner_location_id: 'bos-hanover-09',
      status: 'invalid',
      code: 'bad_row',
    });
    expect(byLine.get('11')?.message).toContain('5 fields and the header 8');
    const conflict = csvRows.find((r) => r.status === 'conflict');
    // Line 10 repeats line 2's id with another name: the first line decides, line 10 is not sent.
    expect(conflict).toMatchObject({ partner_location_id: 'sf-mission-01', code: 'conflict', line: '10' });
    expect(conflict?.message).toContain(
      'line 10 has the partner_location_id sf-mission-01 of line 2 with other content',
    );

    const records = jsonLines(report);
    expect(records).toHaveLength(12);
    expect(records.map((r) => r.line).sort((a, b) => Number(a) - Number(b))).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    ]);
    expect(records.filter((r) => r.status === 'created')).toHaveLength(7);
    for (const r of records.filter((r) => r.status === 'created')) expect(r.request_id).toEqual(expect.any(String));

    // Resumed: the enrolled rows are skipped without a call (same id and content); line 10 is still
    // the conflict with line 2; the bad ones are tried, and refused, again.
    const again = await crp(['enroll', SAMPLE, '--resume', report, '--json'], sandbox.env, dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(''); // --json: no progress
    expect(JSON.parse(again.stdout)).toEqual({
      rows: 12,
      counts: { created: 0, already_enrolled: 0, skipped: 7, invalid: 4, conflict: 1, failed: 0, not_attempted: 0 },
      aborted: false,
      reports: [],
    });

    // A file whose every row enrolls (or was already enrolled): exit 0.
    const good = storesCsv('good.csv', 5, 'good');
    const ok = await crp(['enroll', good], sandbox.env, dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^5 rows: 5 enrolled/);
    const twice = await crp(['enroll', good, '--json'], sandbox.env, dir);
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.stdout).counts).toMatchObject({ already_enrolled: 5 });
  });

  it('summary, bookings export and billing export write what the service holds', async () => {
    // Wait for the flowing clock to give the enrolled stores some bookings.
    let summary: { locations: { total: number }; reservations: Record<string, number> } | undefined;
    for (let i = 0; i < 50; i++) {
      const run = await crp(['summary', '--json'], sandbox.env);
      expect(run.code).toBe(0);
      summary = JSON.parse(run.stdout) as typeof summary;
      const r = summary?.reservations ?? {};
      if ((r.pending ?? 0) + (r.confirmed ?? 0) + (r.completed ?? 0) > 3) break;
    }
    expect(summary?.locations.total).toBe(12);
    const text = await crp(['summary'], sandbox.env);
    expect(text.stdout).toMatch(/^As of \d{4}-\d\d-\d\dT/);
    expect(text.stdout).toMatch(/Stores: +12 \(/);

    const all = await crp(['bookings', 'export', '--format', 'jsonl'], sandbox.env);
    expect(all.code).toBe(0);
    const bookings = lines(all.stdout).map((l) => JSON.parse(l) as { reservation_id: string; status: string });
    expect(bookings.length).toBeGreaterThan(3);
    expect(new Set(bookings.map((b) => b.reservation_id)).size).toBe(bookings.length);

    const out = join(dir, 'bookings.csv');
    const status = bookings[0]?.status as string;
    const filtered = await crp(['bookings', 'export', '--status', status, '--out', out], sandbox.env);
    expect(filtered.code).toBe(0);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    // Simulated time keeps flowing between the two exports, so compare shapes, not counts.
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === status)).toBe(true);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'reservation_id',
      'partner_location_id',
      'status',
      'visit_at',
      'time_zone',
      'party_size',
      'creator_handle',
      'creator_platforms',
      'creator_follower_count',
      'acknowledged_kind',
      'created_at',
    ]);
    expect(filtered.stderr).toContain(`crp: ${rows.length} bookings written to ${out}`);

    const refused = await crp(['bookings', 'export', '--from', '2026-13-01'], sandbox.env);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('crp: --from is not a real date (months run 01 to 12, not 13); got "2026-13-01".');

    // The current simulated month: every store was enrolled by then.
    const month = (
      JSON.parse((await crp(['summary', '--json'], sandbox.env)).stdout) as { generated_at: string }
    ).generated_at.slice(0, 7);
    const billing = await crp(['billing', 'export', month], sandbox.env);
    expect(billing.code).toBe(0);
    const billed = parse(billing.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(billed).toHaveLength(12);
    expect(billed.every((r) => r.month === month)).toBe(true);
    const billingJsonl = await crp(['billing', 'export', month, '--format', 'jsonl'], sandbox.env);
    expect(
      lines(billingJsonl.stdout)
        .map((l) => (JSON.parse(l) as { partner_location_id: string }).partner_location_id)
        .sort(),
    ).toEqual(billed.map((r) => r.partner_location_id).sort());
  });

  it('names the allowed values of every enum-like flag, and writes nothing (stdout, --out) for a refused value', {
    timeout: 60_000,
  }, async () => {
    const out = join(dir, 'never-written.csv');
    const cases: Array<[string[], string]> = [
      [
        ['bookings', 'export', '--status', 'nope'],
        '--status must be pending, confirmed, rejected, cancelled, completed or no_show; got "nope".',
      ],
      [
        ['bookings', 'export', '--status', 'confirmed,nope', '--out', out],
        '--status must be pending, confirmed, rejected, cancelled, completed or no_show; got "nope".',
      ],
      [['bookings', 'export', '--format', 'xml'], '--format must be csv or jsonl; got "xml".'],
      [['bookings', 'export', '--acknowledged', 'maybe'], '--acknowledged must be true or false; got "maybe".'],
      // Checked by the SDK before sending; the message names the flag, not the query field.
      [['bookings', 'export', '--from', 'yesterday', '--out', out], '--from must be a date as YYYY-MM-DD.'],
      [['bookings', 'export', '--location', '..'], '--location must not be "." or ".."'],
      [['billing', 'export', '2026-12', '--format', 'xml'], '--format must be csv or jsonl; got "xml".'],
      [['billing', 'export', 'december', '--out', out], 'the month argument must be a month as YYYY-MM.'],
      [['events', 'tail', '--from', 'yesterday'], '--from must be now or beginning; got "yesterday".'],
      [['enroll', SAMPLE, '--concurrency', 'lots'], '--concurrency must be a whole number, 1 or more; got "lots".'],
    ];
    const runs = await Promise.all(cases.map(([args]) => crp(args, sandbox.env)));
    for (const [i, [args, says]] of cases.entries()) {
      const run = runs[i] as Finished;
      expect(run, args.join(' ')).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr, args.join(' ')).toContain(`crp: ${says}`);
      // The error stays on screen: one line pointing to the help, not the help itself.
      expect(run.stderr, args.join(' ')).toMatch(new RegExp(`\\nRun crp ${args[0]} --help for the usage\\.\\n$`));
      expect(run.stderr, args.join(' ')).not.toContain('Usage:');
    }
    expect(existsSync(out)).toBe(false);
    const json = await crp(['bookings', 'export', '--status', 'nope', '--json'], sandbox.env);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { name: 'UsageError', message: expect.stringContaining('got "nope"') },
    });
  });

  it('events tail: JSON lines from watchEvents() until Ctrl-C, exit 0, the checkpoint kept', async () => {
    const checkpoint = join(dir, 'events.checkpoint');
    const child = spawnCrp(['events', 'tail', '--checkpoint', checkpoint], sandbox.env, dir);
    await firstLine(child, 'no event in 30 s');
    child.kill('SIGINT');
    const run = await child.finished;
    expect(run.code).toBe(0);
    const events = lines(run.stdout).map((l) => JSON.parse(l) as { type: string });
    expect(events.length).toBeGreaterThan(0);
    // id and type lead each line, for a reader (or grep) of the stream.
    for (const line of lines(run.stdout))
      expect(Object.keys(JSON.parse(line) as object).slice(0, 2)).toEqual(['id', 'type']);
    expect(lines(run.stdout)[0]).toMatch(
      /^\{"id":"evt_[^"]+","type":"(reservation\.(created|updated)|video\.published)",/,
    );
    for (const e of events) expect(e.type).toMatch(/^(reservation\.(created|updated)|video\.published)$/);
    expect(existsSync(checkpoint)).toBe(true);
    expectNoKey(run, sandbox.key);
    // stderr: where it started, and what it did.
    expect(run.stderr.split('\n')[0]).toBe(
      `crp: watching from the beginning (first everything that exists); ${checkpoint} holds no position yet and keeps it from here on. Events go to stdout; Ctrl-C stops.`,
    );
    expect(run.stderr).toMatch(
      new RegExp(
        `\\ncrp: watched for \\d+s: ${events.length} events, \\d+ calls, \\d+ polls \\(\\d+ failed\\), \\d+ full reconciliations\\.\\n$`,
      ),
    );

    // A rotated key of the same account: refused, naming the old key's fingerprint, until given it.
    const issued = await fetch(`${sandbox.url}/_sandbox/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: sandbox.key }),
    });
    const rotatedKey = ((await issued.json()) as { key: string }).key;
    const rotatedEnv = { ...sandbox.env, PARTNER_API_KEY: rotatedKey };
    const refused = await crp(['events', 'tail', '--checkpoint', checkpoint], rotatedEnv, dir);
    expect(refused.code).not.toBe(0);
    const oldFingerprint = /fingerprint ([0-9a-f]{16});/.exec(refused.stderr)?.[1];
    expect(oldFingerprint, refused.stderr).toBeDefined();
    expect(refused.stderr).toContain('--previous-key');
    expectNoKey(refused, sandbox.key);
    expectNoKey(refused, rotatedKey);
    const resumed = startCrp(
      ['events', 'tail', '--checkpoint', checkpoint, '--previous-key', oldFingerprint as string],
      rotatedEnv,
      dir,
    );
    await until(
      () => resumed.stdout().includes('\n'),
      30_000,
      () => `no event in 30 s after the rotation:\n${resumed.stdout()}`,
    );
    resumed.signal('SIGINT');
    const again = await resumed.finished;
    expect(again.code).toBe(0);
    expect(again.stderr.split('\n')[0]).toBe(
      `crp: watching from the position saved in ${checkpoint}. Events go to stdout; Ctrl-C stops.`,
    );
  }, 90_000);

  it.runIf(existsSync('/usr/bin/script'))(
    'enroll on a terminal: a bar redrawn in place with rate and ETA',
    async () => {
      const good = storesCsv('tty.csv', 30, 'tty');
      // script(1) gives the command a pseudo-terminal; its output comes back through script's stdout.
      const command = [process.execPath, bundled('src/cli/crp.ts'), 'enroll', good].map((a) => `'${a}'`).join(' ');
      const run = await new Promise<Finished>((done) => {
        const child = spawn('script', ['-qfec', command, '/dev/null'], { env: sandbox.env, cwd: dir });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.once('close', (code) => done({ code, stdout, stderr: '' }));
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(ESCAPES);
      expect(run.stdout).toMatch(/100% \| 30\/30 rows \| [\d.]+ rows\/s sent \| ETA \S+ \| 0 not enrolled/);
      expect(run.stdout).toMatch(/30 rows: 30 enrolled/);
    },
  );
});

describe('crp enroll stopped with Ctrl-C', () => {
  it('cancels the calls waiting for the budget, reports every row, writes the reports, exits 2', async () => {
    // A fresh key: 600 calls a minute. The 601st row waits for the next window, and then comes Ctrl-C.
    // The windows run on a clock the test moves a minute on, so the resumed run need not wait one.
    let skipped = 0;
    const sandbox = await serveSandbox({ rateLimitClock: () => Date.now() + skipped });
    try {
      const csv = storesCsv('many.csv', 650, 'many');
      const report = join(dir, 'stopped.jsonl');
      const failures = join(dir, 'stopped.csv');
      const child = startCrp(['enroll', csv, '--report', report, '--report', failures], sandbox.env, dir);
      const started = Date.now();
      for (;;) {
        const done = (() => {
          try {
            return lines(readFileSync(report, 'utf8')).length;
          } catch {
            return 0;
          }
        })();
        if (done >= 600) break;
        if (Date.now() - started > 40_000) throw new Error(`only ${done} rows done in 40 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      child.signal('SIGINT');
      const run = await child.finished;
      expect(Date.now() - started).toBeLessThan(45_000); // not the minute the window needed
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('crp: SIGINT: stopping enrolling');
      expect(run.stdout).toMatch(/^Stopped\. 650 rows: 600 enrolled, .* 50 not attempted/);
      const records = jsonLines(report);
      expect(records).toHaveLength(650);
      expect(new Set(records.map((r) => r.partner_location_id)).size).toBe(650);
      expect(records.filter((r) => r.status === 'created')).toHaveLength(600);
      expect(records.filter((r) => r.status === 'not_attempted')).toHaveLength(50);
      expect(lines(readFileSync(failures, 'utf8'))).toHaveLength(51);
      expectNoKey(run, sandbox.key);
      // The progress stops where the run was (not 100 %), and the command that goes on is printed.
      expect(run.stderr).toMatch(/^600\/650 rows \(92%\), [\d.]+ rows\/s, stopped$/m);
      expect(run.stderr).not.toContain('(100%)');
      expect(run.stdout).toContain(
        '50 not attempted: the stop came before these rows were sent (or answered); enrolling them again is safe',
      );
      const goOn = `crp enroll ${csv} --resume ${report} --report ${join(dir, 'stopped.2.jsonl')} --report ${join(dir, 'stopped.2.csv')}`;
      expect(run.stdout).toContain(`To go on where it stopped:\n  ${goOn}\n`);
      skipped += 61_000;
      const resumed = await crp(goOn.split(' ').slice(1), sandbox.env, dir);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/^650 rows: 50 enrolled, 0 already enrolled, 600 skipped \(resumed\)/);
      expect(resumed.stdout).not.toContain('To go on');
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
