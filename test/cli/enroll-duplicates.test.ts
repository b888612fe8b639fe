/** `crp enroll` on a file that names one store twice, and resumed from its report: the first line decides. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADER, enrollEnv, jsonLines, row } from './enroll-env.js';
import { crp } from './in-process.js';

const env = enrollEnv('crp-dup-');

function csv(name: string, lines: string[]): string {
  const path = join(env.dir, name);
  writeFileSync(path, `${HEADER}\n${lines.join('\n')}\n`);
  return path;
}
async function storeName(id: string): Promise<unknown> {
  const response = await fetch(`${env.sandbox.url}/partner/v1/locations/${id}`, {
    headers: { authorization: `Bearer ${env.sandbox.key}` },
  });
  return ((await response.json()) as { name?: unknown }).name;
}

describe('crp enroll with one partner_location_id on two lines', () => {
  // Line 2 and line 11 name bulk-0; the first POST gets a 500 (and is retried).
  const lines = [
    row('bulk-0', '"Store 0, Main"', 0),
    ...Array.from({ length: 8 }, (_, i) => row(`bulk-${i + 1}`, `Store ${i + 1}`, i + 1)),
    row('bulk-0', 'A Different Name', 0),
  ];

  it('keeps the first line, reports the later one as a conflict naming line 2 with what to do in crp, and a resumed run still reports it', async () => {
    const stores = csv('dup.csv', lines);
    const report = join(env.dir, 'dup.jsonl');
    const fault = await fetch(`${env.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/partner/v1/locations', status: 500 }),
    });
    expect(fault.status).toBe(201);

    const run = await crp(['enroll', stores, '--report', report], env.sandbox.env, env.dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      /^10 rows: 9 enrolled, 0 already enrolled, 0 skipped \(resumed\), 0 invalid, 1 conflicts, 0 failed, 0 not attempted/,
    );
    expect(run.stdout).toContain(
      `line 11  bulk-0  conflict conflict: line 11 has the partner_location_id bulk-0 of line 2 with other content, so it was not sent: the first line of an id decides. Fix or delete line 11 or line 2 in ${stores}, then run crp enroll again.`,
    );
    expect(run.stdout).not.toContain('client.locations');
    expect(await storeName('bulk-0')).toBe('Store 0, Main');

    const records = jsonLines(report);
    expect(records).toHaveLength(10);
    for (const r of records) expect(r.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const conflict = records.find((r) => r.status === 'conflict');
    expect(conflict).toMatchObject({
      line: 11,
      partner_location_id: 'bulk-0',
      code: 'conflict',
      conflicts_with_line: 2,
    });
    expect(conflict?.content_hash).not.toBe(records.find((r) => r.line === 2)?.content_hash);

    // Resumed: line 2 is skipped (same id, same content); line 11 is still the conflict it was.
    const again = await crp(['enroll', stores, '--resume', report, '--json'], env.sandbox.env, env.dir);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout)).toMatchObject({
      rows: 10,
      counts: { skipped: 9, conflict: 1, created: 0, already_enrolled: 0 },
    });

    // The later line alone, resumed from the first run's report: the id was enrolled with other content.
    const alone = csv('alone.csv', [lines[9] as string]);
    const aloneReport = join(env.dir, 'alone.csv.report.csv');
    const clash = await crp(['enroll', alone, '--resume', report, '--report', aloneReport], env.sandbox.env, env.dir);
    expect(clash.code).toBe(2);
    expect(clash.stdout).toMatch(
      /^1 rows: 0 enrolled, 0 already enrolled, 0 skipped \(resumed\), 0 invalid, 1 conflicts/,
    );
    expect(clash.stdout).toContain(
      `bulk-0 was enrolled with other content by the run that ${report} reports, so line 2 was not sent: make line 2 match it or give the line its own partner_location_id in ${alone}`,
    );
    expect(readFileSync(aloneReport, 'utf8')).toContain('conflict');
    expect(await storeName('bulk-0')).toBe('Store 0, Main');
  });

  it('reads an older report without content_hash: it skips nothing, the rows are sent again and the service decides', async () => {
    const stores = csv('older.csv', lines);
    const older = join(env.dir, 'older.jsonl');
    const records = Array.from({ length: 9 }, (_, i) => ({
      line: i + 2,
      partner_location_id: `bulk-${i}`,
      status: 'created',
    }));
    writeFileSync(older, records.map((r) => JSON.stringify(r)).join('\n'));
    const run = await crp(['enroll', stores, '--resume', older, '--json'], env.sandbox.env, env.dir);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      rows: 10,
      counts: { skipped: 0, already_enrolled: 9, conflict: 1 },
    });
  });

  it('refuses a --report that is the --resume report, or a report given twice, before sending anything', async () => {
    const stores = csv('refused.csv', lines.slice(0, 2));
    const report = join(env.dir, 'same.jsonl');
    writeFileSync(report, '');
    const same = await crp(['enroll', stores, '--resume', report, '--report', report], env.sandbox.env, env.dir);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain(
      `crp: --resume ${report} and --report ${report} are the same file: the report would be emptied before it is read. Write the new report to another file.`,
    );
    const twice = await crp(
      ['enroll', stores, '--report', 'a.jsonl', '--report', './a.jsonl'],
      env.sandbox.env,
      env.dir,
    );
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('crp: --report ./a.jsonl is given twice: give each report its own file.');
  });
});
