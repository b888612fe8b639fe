/**
 * The stores file of `crp enroll`: the line each row starts on, for LF, CRLF and CR files, with
 * and without newlines inside quoted fields, blank lines and a BOM; and a file that is not UTF-8
 * refused whole, naming the line and byte offset. FC_NUM_RUNS for a longer property run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SetupError } from '../../src/cli/command.js';
import { watchBytes } from '../../src/cli/enroll-csv-bytes.js';
import { countStores, readStores, type StoreRow } from '../../src/cli/store-csv.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';

const HEADER = 'partner_location_id,name,line1,city,state,postal_code,country';
const dir = mkdtempSync(join(tmpdir(), 'crp-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `stores-${++n}.csv`);
  writeFileSync(path, content);
  return path;
}
async function rows(path: string): Promise<StoreRow[]> {
  const out: StoreRow[] = [];
  for await (const row of readStores(path, process.cwd())) out.push(row);
  return out;
}
const lineAndName = (row: StoreRow) => ['body' in row ? row.body.name : row.problem, row.line];

describe('the line each row of the stores file starts on', () => {
  const eols = { LF: '\n', CRLF: '\r\n', CR: '\r' } as const;
  for (const [kind, eol] of Object.entries(eols)) {
    it(`${kind}: a quoted name over two lines, a blank line, and the rows after them`, async () => {
      const text = [
        HEADER,
        `a,"Two${eol}Lines",1 Main St,Austin,TX,78704,US`,
        '',
        `b,Bee,2 Main St,Austin,TX,78704,US`,
        `c,"Three${eol}${eol}Lines",3 Main St,Austin,TX,78704,US`,
        `d,Dee,4 Main St,Austin,TX,78704,US`,
      ].join(eol);
      const got = await rows(file(text + eol));
      expect(got.map(lineAndName)).toEqual([
        [`Two${eol}Lines`, 2],
        ['Bee', 5],
        [`Three${eol}${eol}Lines`, 6],
        ['Dee', 9],
      ]);
      expect(await rows(file(`\ufeff${text}`))).toEqual(got);
    });
  }

  it('CRLF file, a quoted name with a CRLF in it: 50 rows after it keep their own lines (csv-parse alone puts each one line too far)', async () => {
    const later = Array.from({ length: 50 }, (_, i) => `s${i},Store ${i},${i} Main St,Austin,TX,78704,US`);
    const got = await rows(
      file([HEADER, 'q,"Upstairs\r\nDowntown",1 Main St,Austin,TX,78704,US', ...later, ''].join('\r\n')),
    );
    expect(got.map((r) => r.line)).toEqual([2, ...later.map((_, i) => i + 4)]);
  });

  it('a broken row is told on its own line', async () => {
    const got = await rows(file([HEADER, 'a,"A\r\nB",1 Main St,Austin,TX,78704,US', 'b,Bee,too,few', ''].join('\r\n')));
    expect(got[1]).toMatchObject({ line: 4, partner_location_id: 'b' });
  });

  // Random files: each row's line is known from how the file was written, whatever the chunks.
  const eol = fc.constantFrom('\n', '\r\n', '\r');
  const cell = fc.oneof(
    fc.stringMatching(/^[A-Za-zé ]{1,6}$/),
    fc
      .tuple(
        fc.stringMatching(/^[A-Za-z]{0,3}$/),
        fc.array(eol, { minLength: 1, maxLength: 2 }),
        fc.stringMatching(/^[A-Za-z]{1,3}$/),
      )
      .map(([a, breaks, b]) => `${a}${breaks.join('')}${b}`)
      .map((quoted) => ({ quoted, breaks: quoted.match(/\r\n|\r|\n/g)?.length ?? 0 })),
  );
  const spec = fc.record({
    eol,
    bom: fc.boolean(),
    rows: fc.array(fc.record({ blankBefore: fc.nat({ max: 2 }), name: cell }), { minLength: 1, maxLength: 12 }),
    chunk: fc.integer({ min: 1, max: 64 }),
  });
  it(`random LF, CRLF and CR files with quoted line breaks and blank lines: every row on its line, in files and in chunks of any size (${fastCheckRuns(60).numRuns} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(spec, async (s) => {
        let text = `${s.bom ? '\ufeff' : ''}${HEADER}${s.eol}`;
        let line = 2;
        const expected: number[] = [];
        s.rows.forEach((r, i) => {
          text += s.eol.repeat(r.blankBefore);
          line += r.blankBefore;
          expected.push(line);
          const name = typeof r.name === 'string' ? r.name.trim() || 'x' : `"${r.name.quoted}"`;
          text += `id${i},${name},1 Main St,Austin,TX,78704,US${s.eol}`;
          line += 1 + (typeof r.name === 'string' ? 0 : r.name.breaks);
        });
        expect((await rows(file(text))).map((r) => r.line)).toEqual(expected);

        // The counter alone, on chunks of s.chunk bytes, asked where each record csv-parse read ends.
        const bytes = Buffer.from(text);
        const { tap, lines } = watchBytes('x.csv');
        const { parse } = await import('csv-parse');
        const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, trim: true });
        const chunks = Array.from({ length: Math.ceil(bytes.length / s.chunk) }, (_, i) =>
          bytes.subarray(i * s.chunk, (i + 1) * s.chunk),
        );
        const seen: number[] = [];
        let end = 0;
        await pipeline(
          Readable.from(chunks),
          tap,
          parser,
          async (records: AsyncIterable<{ info: { bytes: number } }>) => {
            for await (const { info } of records) {
              seen.push(lines.lineOf(end, info.bytes));
              end = info.bytes;
            }
          },
        );
        expect(seen).toEqual([1, ...expected]);
      }),
      fastCheckRuns(60),
    );
  }, 60_000);
});

describe('a stores file that is not UTF-8', () => {
  const latin1 = Buffer.concat([
    Buffer.from(`${HEADER}\r\na,"Two\r\nLines",1 Main St,Austin,TX,78704,US\r\nb,Caf`),
    Buffer.from([0xe9]),
    Buffer.from(',2 Main St,Austin,TX,78704,US\r\n'),
  ]);

  it('is refused whole before any row is read, naming the line, the byte offset and what to do', async () => {
    const path = file(latin1);
    const offset = latin1.indexOf(0xe9);
    const refusal = countStores(path, process.cwd());
    await expect(refusal).rejects.toBeInstanceOf(SetupError);
    await expect(refusal).rejects.toThrow(
      `${path} is not UTF-8: line 4, byte offset ${offset} (0xE9) is not UTF-8 text (a file saved as Latin-1 or Windows-1252?). Nothing was sent. Save the file as UTF-8 (in Excel: CSV UTF-8), then run crp enroll again.`,
    );
    await expect(rows(path)).rejects.toThrow(/line 4, byte offset/);
  });

  it('is refused for a sequence cut off at the end of the file, or a byte split from its sequence across chunks', async () => {
    await expect(
      countStores(file(Buffer.concat([Buffer.from(`${HEADER}\nb,Caf`), Buffer.from([0xc3])])), process.cwd()),
    ).rejects.toThrow(/line 2, byte offset 67 \(0xC3\)/);
    // Valid multi-byte text in 1-byte chunks passes; an invalid continuation is found across chunks.
    for (const [bytes, fails] of [
      [Buffer.from('Café 東京 🍜\n'), false],
      [Buffer.from([0x61, 0x0a, 0xe6, 0x9d, 0x41]), true],
    ] as const) {
      const { tap } = watchBytes('x.csv');
      const run = pipeline(
        Readable.from(Array.from(bytes, (b) => Buffer.from([b]))),
        tap,
        async (source: AsyncIterable<Buffer>) => {
          for await (const _ of source);
        },
      );
      if (fails) await expect(run).rejects.toThrow(/line 2, byte offset 2 \(0xE6\)/);
      else await expect(run).resolves.toBeUndefined();
    }
  });

  it('a UTF-8 file with a BOM and accented names is read as written', async () => {
    const got = await rows(file(`\ufeff${HEADER}\nb,Café 東京,2 Main St,Austin,TX,78704,US\n`));
    expect(got.map(lineAndName)).toEqual([['Café 東京', 2]]);
  });
});
