import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { watchBytes } from '../../src/cli/enroll-csv-bytes.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';

/**
 * The byte watcher of `crp enroll`'s stores file on its own (store-csv-lines.test.ts drives it
 * through csv-parse): UTF-8 checked chunk by chunk against Node's own isUtf8, and the line counter
 * at the edges of its contract. FC_NUM_RUNS for a longer run.
 */
async function pass(bytes: Buffer, chunkSizes: number[]): Promise<void> {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = chunkSizes[i % chunkSizes.length] as number;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  const { tap } = watchBytes('stores.csv');
  await pipeline(Readable.from(chunks), tap, async (source: AsyncIterable<Buffer>) => {
    for await (const _ of source);
  });
}

/** Where the first invalid sequence starts: the longest prefix that is UTF-8. */
const firstInvalid = (bytes: Buffer) => {
  for (let end = bytes.length; end >= 0; end--) if (isUtf8(bytes.subarray(0, end))) return end;
  return 0;
};
/** The line of the byte at `offset`: LF, CRLF and a lone CR each end one. */
const lineAt = (bytes: Buffer, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0d || (bytes[i] === 0x0a && bytes[i - 1] !== 0x0d)) line += 1;
  return line;
};

describe('the UTF-8 check', () => {
  // Text, line breaks, and the lead and continuation bytes at each edge of UTF-8's ranges.
  const piece = fc.oneof(
    fc
      .constantFrom('a', '\n', '\r', '\r\n', 'é', '©', 'ß', '東', '\u0800', '\uffff', '🍜', '\u{10ffff}')
      .map((s) => Buffer.from(s)),
    fc
      .constantFrom(0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff)
      .map((b) => Buffer.from([b])),
  );
  const text = fc.array(piece, { maxLength: 16 }).map((pieces) => Buffer.concat(pieces));

  it(`takes what isUtf8 takes, in chunks of any size; refuses the rest at the first invalid byte and its line (${fastCheckRuns(300).numRuns} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        async (bytes, sizes) => {
          const run = pass(bytes, sizes);
          if (isUtf8(bytes)) return void (await run);
          const at = firstInvalid(bytes);
          const hex = (bytes[at] as number).toString(16).toUpperCase();
          await expect(run).rejects.toThrow(
            `stores.csv is not UTF-8: line ${lineAt(bytes, at)}, byte offset ${at} (0x${hex})`,
          );
        },
      ),
      fastCheckRuns(300),
    );
  });

  it('takes 2-, 3- and 4-byte characters at the edges of their ranges, byte by byte (shrunk counterexamples)', async () => {
    for (const list of [
      [0xc2, 0x80],
      [0xdf, 0xbf],
      [0xe0, 0xa0, 0x80],
      [0xef, 0xbf, 0xbf],
      [0xf0, 0x90, 0x80, 0x80],
      [0xf4, 0x8f, 0xbf, 0xbf],
    ]) {
      for (const sizes of [[1], [2], [3]])
        await expect(pass(Buffer.from(list), sizes), `${list} in ${sizes}`).resolves.toBeUndefined();
    }
  });

  it.each<[string, number[]]>([
    ['a CRLF split across chunks counts once', [0x61, 0x0d, 0x0a, 0x62, 0xff]],
    ['a file that opens with a line break', [0x0a, 0xff]],
    ['a valid two-byte character before the bad byte', [0x0a, 0xc2, 0xa9, 0xc1, 0x80]],
  ])('%s', async (_, list) => {
    const bytes = Buffer.from(list);
    for (const sizes of [[1], [2], [list.length]]) {
      await expect(pass(bytes, sizes)).rejects.toThrow(
        `line ${lineAt(bytes, firstInvalid(bytes))}, byte offset ${firstInvalid(bytes)} `,
      );
    }
  });
});

describe('the line counter', () => {
  const counter = async (text: string) => {
    const { tap, lines } = watchBytes('stores.csv');
    await pipeline(Readable.from([Buffer.from(text)]), tap, async (source: AsyncIterable<Buffer>) => {
      for await (const _ of source);
    });
    return lines;
  };

  it('skips spaces, tabs and blank lines before a record, and counts a line break at the very start', async () => {
    const lines = await counter('\n \t\r\n\rabc\n  x');
    expect(lines.lineOf(0, 9)).toBe(4);
    expect(lines.lineOf(9, 13)).toBe(5);
  });

  it('does not look past `to`: a run of spaces is on its own line, whatever follows', async () => {
    const lines = await counter('   \n\nabc');
    expect(lines.lineOf(0, 3)).toBe(1);
    expect(lines.lineOf(3, 8)).toBe(3);
  });

  it('a record whose first byte is followed by a line break starts on the line of that byte', async () => {
    expect((await counter('a\nb')).lineOf(0, 3)).toBe(1);
    const lines = await counter('xa\nb');
    expect(lines.lineOf(0, 1)).toBe(1);
    expect(lines.lineOf(1, 4)).toBe(1);
  });

  it('counts the bytes between one call and the next that no record was read from', async () => {
    const lines = await counter('ab\ncd\r\nef\rgh');
    expect(lines.lineOf(0, 2)).toBe(1);
    expect(lines.lineOf(10, 12)).toBe(4);
  });
});
