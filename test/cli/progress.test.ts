/** The progress bar on a terminal: other lines written while it runs stay readable. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progress } from '../../src/cli/progress.js';

/** A terminal's screen after the bytes written to it: enough of VT100 for what cli-progress and readline send. */
function screen(bytes: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  let saved = { row: 0, col: 0 };
  const put = (ch: string) => {
    const line = (lines[row] ?? '').padEnd(col, ' ');
    lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
    col += 1;
  };
  for (let i = 0; i < bytes.length; i++) {
    const ch = bytes[i] as string;
    if (ch === '\n') {
      row += 1;
      col = 0; // a terminal's onlcr
      lines[row] ??= '';
    } else if (ch === '\r') col = 0;
    else if (ch === '\x1b') {
      const rest = bytes.slice(i + 1);
      if (rest[0] === '7') saved = { row, col };
      else if (rest[0] === '8') ({ row, col } = saved);
      const csi = /^\[([?\d;]*)([A-Za-z])/.exec(rest);
      if (csi) {
        const [, arg = '', op] = csi;
        if (op === 'G') col = Number(arg || 1) - 1;
        else if (op === 'K' && (arg === '' || arg === '0')) lines[row] = (lines[row] ?? '').slice(0, col);
        else if (op === 'K' && arg === '2') lines[row] = '';
        i += csi[0].length;
      } else i += 1;
    } else put(ch);
  }
  return lines.map((l) => l.trimEnd()).filter((l, i, all) => l !== '' || i < all.length - 1);
}

function fakeTerminal(): { stream: NodeJS.WriteStream; written: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      out += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY: true, columns: 100, rows: 30 });
  return { stream, written: () => out };
}

describe('the progress bar on a terminal', () => {
  it('a notice written while it runs keeps its own line, and what follows the bar is written below it, not over it', () => {
    const { stream, written } = fakeTerminal();
    const bar = progress(stream, true, { unit: 'rows', total: 4 });
    bar.update(1, 0);
    stream.write('\ncrp: SIGINT: stopping enrolling (press Ctrl-C again to exit at once).\n');
    bar.update(2, 1);
    stream.write('partner-sdk warn  shared rate budget: Redis unreachable');
    bar.update(3, 1);
    bar.stop();
    stream.write('crp: The API key was refused (401 unauthorized).\n');
    const lines = screen(written());
    expect(lines).toContain('crp: SIGINT: stopping enrolling (press Ctrl-C again to exit at once).');
    expect(lines).toContain('partner-sdk warn  shared rate budget: Redis unreachable');
    expect(lines.at(-1)).toBe('crp: The API key was refused (401 unauthorized).');
    // The bar's last frame sits just above the error, once, with the last figures.
    expect(lines.at(-2)).toMatch(/75% \| 3\/4 rows \| [\d.]+ rows\/s \| ETA \S+ \| 1 not done$/);
    expect(lines.filter((l) => / rows\/s /.test(l))).toHaveLength(1);
    // stream.write is the stream's own again after stop.
    expect(Object.hasOwn(stream, 'write')).toBe(false);
  });

  it('without other output, the bar is one line and the cursor comes back', () => {
    const { stream, written } = fakeTerminal();
    const bar = progress(stream, true, { unit: 'rows', total: 2 });
    bar.update(2, 0);
    bar.stop();
    stream.write('2 rows: 2 enrolled\n');
    expect(screen(written())).toEqual([expect.stringMatching(/100% \| 2\/2 rows .* 0 not done$/), '2 rows: 2 enrolled']);
    expect(written()).toContain('\x1b[?25h');
  });
});
