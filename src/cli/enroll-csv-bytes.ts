/**
 * The bytes of the stores file, watched on their way to csv-parse: a file that is not UTF-8 is
 * refused (csv-parse would turn each bad byte into U+FFFD, and the store would be enrolled under
 * a name nobody wrote), and the line where each record starts is counted from the bytes
 * themselves: csv-parse counts a CRLF inside a quoted field as two lines.
 */
import { isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';
import { SetupError } from './command.js';

const LF = 0x0a;
const CR = 0x0d;

/** A record's line: line breaks are LF, CRLF or a lone CR, counted once each. */
export interface LineCounter {
  /**
   * The line (from 1) of the first byte from `from` up to `to` that is not a space, a tab or a line
   * break: where a record that csv-parse read from those bytes starts, blank lines before it skipped.
   * Offsets only ever grow from one call to the next; bytes before `to` are let go.
   */
  lineOf(from: number, to: number): number;
  /** The line of the first byte from `from` on that is not a space, a tab or a line break, among the bytes read so far. */
  lineFrom(from: number): number;
}

/** A pass-through for the file's bytes that refuses invalid UTF-8, and the line counter it feeds. */
export function watchBytes(path: string): { tap: Transform; lines: LineCounter } {
  const chunks: Buffer[] = [];
  let first = 0; // offset of chunks[0]
  let cursor = 0; // the next byte to count
  let line = 1; // the line of the byte at `cursor`
  let afterCr = false;
  let received = 0; // bytes passed through so far
  const at = (offset: number): number | undefined => {
    let base = first;
    for (const chunk of chunks) {
      if (offset < base + chunk.length) return chunk[offset - base];
      base += chunk.length;
    }
    return undefined;
  };
  const step = (byte: number | undefined) => {
    if (isBreak(byte, afterCr)) line += 1;
    afterCr = byte === CR;
    cursor += 1;
  };
  const lines: LineCounter = {
    lineOf(from, to) {
      while (cursor < from) step(at(cursor));
      for (
        let byte = at(cursor);
        cursor < to && (byte === 0x20 || byte === 0x09 || byte === LF || byte === CR);
        byte = at(cursor)
      )
        step(byte);
      const found = line;
      while (cursor < to) step(at(cursor));
      while (chunks[0] && first + chunks[0].length <= cursor) first += (chunks.shift() as Buffer).length;
      return found;
    },
    lineFrom(from) {
      return lines.lineOf(from, Math.max(from, received));
    },
  };

  const utf8 = utf8Check(path);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        utf8.check(chunk);
      } catch (error) {
        return done(error as Error);
      }
      chunks.push(chunk);
      received += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      try {
        utf8.end();
      } catch (error) {
        return done(error as Error);
      }
      done();
    },
  });
  return { tap, lines };
}

/** A line break ends at this byte: a CR, or an LF that does not end a CRLF. */
function isBreak(byte: number | undefined, afterCr: boolean): boolean {
  return byte === CR || (byte === LF && !afterCr);
}

/** Chunk by chunk: a sequence cut at a chunk's end waits for the next chunk. */
function utf8Check(path: string): { check(chunk: Buffer): void; end(): void } {
  let carry = Buffer.alloc(0);
  let offset = 0; // of carry's first byte
  let line = 1; // of carry's first byte
  let afterCr = false;
  /** Count the line breaks of `bytes` up to `end`, from the line of its first byte. */
  const count = (bytes: Buffer, end: number): number => {
    let l = line;
    for (let i = 0, cr = afterCr; i < end; cr = bytes[i] === CR, i++) if (isBreak(bytes[i], cr)) l += 1;
    return l;
  };
  const fail = (bytes: Buffer, at: number): never => {
    const bad = `0x${(bytes[at] as number).toString(16).toUpperCase().padStart(2, '0')}`;
    throw new SetupError(
      `${path} is not UTF-8: line ${count(bytes, at)}, byte offset ${offset + at} (${bad}) is not UTF-8 text ` +
        '(a file saved as Latin-1 or Windows-1252?). Nothing was sent. Save the file as UTF-8 (in Excel: CSV UTF-8), then run crp enroll again.',
    );
  };
  return {
    check(chunk) {
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      const whole = bytes.subarray(0, bytes.length - incompleteTail(bytes));
      if (!isUtf8(whole)) fail(bytes, firstInvalid(whole));
      line = count(whole, whole.length);
      if (whole.length) afterCr = whole[whole.length - 1] === CR;
      offset += whole.length;
      carry = Buffer.from(bytes.subarray(whole.length));
    },
    end() {
      if (carry.length) fail(carry, 0);
    },
  };
}

/** How many bytes a sequence that starts with `lead` has; 0 for a byte no sequence starts with. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Bytes at the end that start a sequence the buffer ends before finishing (0 to 3). */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) !== 0x80) return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

/** The offset of the first byte that is not part of a valid UTF-8 sequence (the buffer is known to have one). */
function firstInvalid(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes[i] as number);
    if (n === 0 || i + n > bytes.length || !isUtf8(bytes.subarray(i, i + n))) return i;
    i += n;
  }
  return i;
}
