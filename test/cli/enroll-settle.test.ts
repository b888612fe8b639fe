/** `crp enroll` when the service enrolls a store and its answer is lost (5xx on every attempt after acting): the report says it is enrolled, confirmed by a read. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADER, enrollEnv, jsonLines, row } from './enroll-env.js';
import { crp } from './in-process.js';

const env = enrollEnv('crp-settle-');

const fault = (body: object) =>
  fetch(`${env.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'POST', path: '/partner/v1/locations', ...body }),
  });

describe('crp enroll and a 5xx after the service acted', () => {
  it('reports the row enrolled, confirmed after the failure, with exit 0; a store the read cannot find is failed', async () => {
    writeFileSync(
      join(env.dir, 'stores.csv'),
      `${HEADER}\n${Array.from({ length: 3 }, (_, i) => row(`lost-${i}`, `Store ${i}`, i)).join('\n')}\n`,
    );
    // One row at a time: lost-0's three attempts act and answer a gateway's 502 page.
    expect((await fault({ status: 502, body: 'html', when: 'after', times: 3 })).status).toBe(201);
    const run = await crp(
      ['enroll', 'stores.csv', '--concurrency', '1', '--report', 'run.jsonl', '--report', 'failures.csv'],
      env.sandbox.env,
      env.dir,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 rows: 2 enrolled, 1 already enrolled');
    expect(run.stdout).toContain(
      '  1 already enrolled row was confirmed by reading the store: the call failed after the service had acted (confirmed_after in the .jsonl report)',
    );
    const records = jsonLines(join(env.dir, 'run.jsonl'));
    expect(records.find((r) => r.partner_location_id === 'lost-0')).toMatchObject({
      line: 2,
      status: 'already_enrolled',
      confirmed_after: 'bad_gateway',
    });
    expect(records.find((r) => r.partner_location_id === 'lost-0')?.message).toMatch(
      /^Its call failed \(.*502.*\), after the service had acted: reading the store found it enrolled with this line's name and address\.$/s,
    );
    expect(records.filter((r) => r.confirmed_after !== undefined)).toHaveLength(1);
    expect(readFileSync(join(env.dir, 'failures.csv'), 'utf8').trim()).toBe(
      'line,partner_location_id,status,code,field,message',
    );

    // Before acting: the read finds nothing, the row is failed (exit 2), and nothing says it may exist.
    writeFileSync(join(env.dir, 'one.csv'), `${HEADER}\n${row('never-0', 'Never', 1)}\n`);
    expect((await fault({ status: 503, times: 3 })).status).toBe(201);
    const failed = await crp(['enroll', 'one.csv', '--report', 'one.jsonl', '--json'], env.sandbox.env, env.dir);
    expect(failed.code).toBe(2);
    const [record] = jsonLines(join(env.dir, 'one.jsonl'));
    expect(record).toMatchObject({ status: 'failed', code: 'unavailable' });
    expect(record).not.toHaveProperty('may_be_enrolled');
    expect(record?.message).toContain(
      'Reading never-0 afterwards found no store: it was not enrolled, and enrolling it again is safe.',
    );
  });
});
