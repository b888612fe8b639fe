/**
 * CSV that a person opens: `crp` escapes every cell a spreadsheet would run as a formula, and
 * `--raw-csv` writes the bytes as they are. `crp` in process against `crp-sandbox`, whose demo data
 * has a creator `=sum.plates` and a store named `+39 Trattoria`; the clock stands still, so two
 * exports of the same data can be compared byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/index.js';
import { FORMULA_STARTS, formulaCells, insertedQuotes } from './csv-cells.js';
import { crp, type Finished } from './in-process.js';
import { startCrpSandbox, type CrpSandbox } from './processes.js';

const HEADER = 'partner_location_id,name,line1,city,state,postal_code,country';

let dir: string;
let sandbox: CrpSandbox;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crp-csv-'));
  // 10 demo stores at seed 14 give the creator =sum.plates a booking.
  sandbox = await startCrpSandbox(['--stores', '10']);
  // A store whose id begins with '-' (the contract's id characters allow it), with bookings.
  const populated = await fetch(`${sandbox.url}/_sandbox/populate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ locations: 1, reservationsPerLocation: 10, idPrefix: '-' }),
  });
  expect(populated.status).toBe(201);
}, 30_000);
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function ok(run: Finished): string {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** `escaped` is `raw` with one `'` before each formula cell, and no other byte changed. */
function expectOnlyFormulasEscaped(escaped: string, raw: string): string[] {
  const formulas = formulaCells(raw);
  expect(insertedQuotes(escaped, raw)).toEqual(formulas.map((cell) => cell.at));
  return formulas.map((cell) => cell.text);
}

describe('crp bookings export and crp billing export', () => {
  it('escape formula cells by default; --raw-csv writes them as they are; JSON lines are the same either way', async () => {
    const [escaped, raw, jsonl, jsonlRaw] = (
      await Promise.all([
        crp(['bookings', 'export'], sandbox.env),
        crp(['bookings', 'export', '--raw-csv'], sandbox.env),
        crp(['bookings', 'export', '--format', 'jsonl'], sandbox.env),
        crp(['bookings', 'export', '--format', 'jsonl', '--raw-csv'], sandbox.env),
      ])
    ).map(ok) as [string, string, string, string];

    const formulas = expectOnlyFormulasEscaped(escaped, raw);
    // Every handle begins with '@'; the seeded creator with '='; the store '-000001' with '-'.
    expect(formulas).toContain('=sum.plates');
    expect(formulas).toContain('-000001');
    expect(new Set(formulas.map((text) => text[0]))).toEqual(new Set(['=', '-', '@']));
    expect(escaped).toMatch(/,'=sum\.plates,/);
    expect(escaped).toMatch(/\n[^,]+,'-000001,/);

    // --raw-csv: the values the service returned, byte for byte as csv-parse reads them back.
    const bookings = jsonl
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as { reservation_id: string; partner_location_id: string; creator: { handle: string } },
      );
    const rows = parse(raw, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.reservation_id, r.partner_location_id, r.creator_handle])).toEqual(
      bookings.map((b) => [b.reservation_id, b.partner_location_id, b.creator.handle]),
    );
    expect(jsonlRaw).toBe(jsonl);
    expect(jsonl).toContain('"handle":"=sum.plates"');

    const month = (
      JSON.parse(ok(await crp(['summary', '--json'], sandbox.env))) as { generated_at: string }
    ).generated_at.slice(0, 7);
    const out = join(dir, 'billing.csv');
    const outRaw = join(dir, 'billing-raw.csv');
    const billing = await Promise.all([
      crp(['billing', 'export', month, '--out', out, '--json'], sandbox.env),
      crp(['billing', 'export', month, '--out', outRaw, '--raw-csv', '--json'], sandbox.env),
      crp(['billing', 'export', month, '--format', 'jsonl'], sandbox.env),
      crp(['billing', 'export', month, '--format', 'jsonl', '--raw-csv'], sandbox.env),
    ]);
    for (const run of billing) expect(run.code).toBe(0);
    expect(expectOnlyFormulasEscaped(readFileSync(out, 'utf8'), readFileSync(outRaw, 'utf8'))).toEqual(['-000001']);
    expect(billing[3]?.stdout).toBe(billing[2]?.stdout);
  }, 60_000);
});

describe('crp enroll --report x.csv', () => {
  it('escapes ids from the stores file that begin with each of the six; --raw-csv keeps them; the .jsonl report is the same either way', async () => {
    // Every row is refused before sending (an id outside the contract's characters, or a country
    // not in ISO form), so both runs report the same rows the same way.
    const stores = join(dir, 'hostile.csv');
    const rows = ['=1+2', '+15125550100', '@leo.plates', '"\tTAB-01"', '"\rCR-01"'].map(
      (id) => `${id},Store,1 Main St,Austin,TX,78704,US`,
    );
    rows.push('-minus-01,Store,1 Main St,Austin,TX,78704,USA');
    writeFileSync(stores, `${HEADER}\n${rows.join('\n')}\n`);
    const run = (report: string, extra: string[]) =>
      crp(
        [
          'enroll',
          stores,
          '--concurrency',
          '1',
          '--report',
          `${report}.csv`,
          '--report',
          `${report}.jsonl`,
          '--json',
          ...extra,
        ],
        sandbox.env,
        dir,
      );
    const [escapedRun, rawRun] = await Promise.all([run('escaped', []), run('raw', ['--raw-csv'])]);
    for (const r of [escapedRun, rawRun])
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 6, counts: { invalid: 6 } });

    const escaped = readFileSync(join(dir, 'escaped.csv'), 'utf8');
    const raw = readFileSync(join(dir, 'raw.csv'), 'utf8');
    const formulas = expectOnlyFormulasEscaped(escaped, raw);
    expect(formulas).toEqual(['=1+2', '+15125550100', '@leo.plates', '\tTAB-01', '\rCR-01', '-minus-01']);
    expect(new Set(formulas.map((text) => text[0]))).toEqual(new Set(FORMULA_STARTS));
    expect(raw).toContain('\n2,=1+2,invalid,validation_error,partner_location_id,');
    expect(escaped).toContain("\n2,'=1+2,invalid,validation_error,partner_location_id,");
    // Quoted because of the carriage return, the ' inside the quotes.
    expect(escaped).toMatch(/\n\d+,"'\rCR-01",invalid,/);
    expect(escaped).toMatch(/\n\d+,'-minus-01,invalid,validation_error,address\.country,/);
    expect(readFileSync(join(dir, 'raw.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'escaped.jsonl'), 'utf8'));
  }, 60_000);

  it('enrolls a store whose name begins with + (the sandbox takes any name of 1..200 characters), as the demo store +39 Trattoria', async () => {
    const stores = join(dir, 'plus.csv');
    writeFileSync(stores, `${HEADER}\nplus-01,+1 Deli,1 Main St,Austin,TX,78704,US\n`);
    const run = await crp(['enroll', stores, '--json'], sandbox.env, dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ rows: 1, counts: { created: 1 } });
    const client = new PartnerClient({ apiKey: sandbox.key, baseUrl: sandbox.url });
    try {
      expect((await client.locations.get('plus-01')).name).toBe('+1 Deli');
      expect((await client.locations.get('demo-000001')).name).toBe('+39 Trattoria');
    } finally {
      await client.close();
    }
  });
});
