/**
 * The CSV options every `crp` writer shares (src/cli/csv-out.ts), in process: what the sandbox
 * cannot serve (a tab or a carriage return at the start of a booking's cell) and any cell at all.
 */
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '../../src/index.js';
import { csvRecord, type Cell } from '../../src/cli/csv-out.js';
import { BOOKINGS } from '../../src/cli/exports.js';
import {
  BLANKS,
  FORMULA_STARTS,
  FULL_WIDTH_STARTS,
  cellStarts,
  formulaCells,
  insertedQuotes,
  startsFormula,
} from './csv-cells.js';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

const booking = (over: Partial<Reservation>, handle: string): Reservation => ({
  reservation_id: 'res_0001',
  partner_location_id: 'sf-001',
  status: 'confirmed',
  visit_at: '2026-12-03T19:30:00-08:00',
  time_zone: 'America/Los_Angeles',
  party_size: 2,
  creator: { handle, platforms: ['tiktok'], follower_count: 1200 },
  acknowledged_kind: null,
  created_at: '2026-12-01T09:00:00.000Z',
  ...over,
});

/** Bookings whose cells begin with each of the six: fields the service's own text fills (a status it may add, a handle). */
const HOSTILE: Reservation[] = [
  booking({ reservation_id: '=1+2' }, '@leo.plates'),
  booking({ status: '+review' }, '+15125550100'),
  booking({ partner_location_id: '-sf-002', party_size: 3 }, '-leo'),
  booking({ time_zone: '\tUTC' }, '\t@tab'),
  booking({ reservation_id: '\rres' }, '\r@cr'),
  booking({}, '=HYPERLINK("https://example.test","leo, plates")'),
];

function file(records: Cell[][], raw: boolean): string {
  const record = csvRecord(raw);
  return records.map((cells) => record(cells)).join('');
}

describe("bookings as CSV (the export's own table)", () => {
  const records = [[...BOOKINGS.columns], ...HOSTILE.map((b) => BOOKINGS.cells(b))];

  it("puts a ' before every cell that begins with = + - @, a tab or a carriage return, and changes nothing else", () => {
    const raw = file(records, true);
    const escaped = file(records, false);
    const formulas = formulaCells(raw);
    expect(new Set(formulas.map((c) => c.text[0]))).toEqual(new Set(FORMULA_STARTS));
    expect(insertedQuotes(escaped, raw)).toEqual(formulas.map((c) => c.at));
    // Read back, each such cell is the value behind a ', every other cell as it was.
    const rawRows = parse(raw) as string[][];
    const escapedRows = parse(escaped) as string[][];
    expect(escapedRows).toEqual(rawRows.map((row) => row.map((cell) => (startsFormula(cell) ? `'${cell}` : cell))));
    expect(escaped).toContain(`"'=HYPERLINK(""https://example.test"",""leo, plates"")"`);
  });

  it('with --raw-csv, writes every cell as it is', () => {
    const raw = file(records, true);
    expect(parse(raw)).toEqual(
      records.map((cells) => cells.map((c) => (c === null || c === undefined ? '' : String(c)))),
    );
    expect(raw).toContain('\n=1+2,sf-001,confirmed,');
    expect(raw).toContain(',2,"=HYPERLINK(""https://example.test"",""leo, plates"")",tiktok,');
  });
});

describe('a cell whose first character a spreadsheet reads is a formula trigger', () => {
  it.each([
    ' =1+2',
    '\u00A0+1',
    '\u200B-1',
    '\u3000@SUM(A1)',
    '\n=1',
    ' \u00A0\u200B\u3000\n=HYPERLINK("x")',
    '  \t',
    ' \uFF1D1',
  ])("%j gets a ' in front", (cell) => {
    expect(csvRecord(false)([cell, 'x'])).toBe(
      `${cell.includes('"') || cell.includes('\n') ? `"'${cell.replaceAll('"', '""')}"` : `'${cell}`},x\n`,
    );
    expect(csvRecord(true)([cell, 'x'])).not.toContain("'");
  });

  it('blanks before ordinary text, and a number, are left as they are', () => {
    expect(csvRecord(false)([' a=1', '\u00A0x', -3, ' '])).toBe(' a=1,\u00A0x,-3, \n');
  });
});

describe('any record', () => {
  const blanks = fc.string({ unit: fc.constantFrom(...BLANKS), maxLength: 3 });
  const text = fc
    .tuple(
      blanks,
      fc.constantFrom('', ...FORMULA_STARTS, ...FULL_WIDTH_STARTS, "'", '"', ',', '\n', ' ', 'a'),
      fc.string(),
    )
    .map(([before, first, rest]) => before + first + rest);
  const cell: fc.Arbitrary<Cell> = fc.oneof(text, fc.integer(), fc.constant(null));
  const record = fc.array(cell, { minLength: 1, maxLength: 8 });

  it("escaped: one ' before each string cell that starts as a formula, no other byte changed; numbers (even -3) untouched", () => {
    fc.assert(
      fc.property(record, (cells) => {
        const raw = csvRecord(true)(cells);
        const escaped = csvRecord(false)(cells);
        const starts = cellStarts(raw);
        expect(starts).toHaveLength(cells.length);
        const expected = starts
          .filter((_start, i) => typeof cells[i] === 'string' && startsFormula(cells[i] as string))
          .map((start) => start.at);
        expect(insertedQuotes(escaped, raw)).toEqual(expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('raw: the cells read back as they were given', () => {
    fc.assert(
      fc.property(record, (cells) => {
        // csv-parse reads a lone empty cell as an empty line; skip that one shape.
        fc.pre(!(cells.length === 1 && (cells[0] === '' || cells[0] === null)));
        expect(parse(csvRecord(true)(cells))).toEqual([cells.map((c) => (c === null ? '' : String(c)))]);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
