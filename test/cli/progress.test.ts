/** The progress bar on a terminal: other lines written while it runs stay readable. */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitState } from '../../src/index.js';
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
    bar.update({ done: 1, sent: 1, notEnrolled: 0 });
    stream.write('\ncrp: SIGINT: stopping enrolling (press Ctrl-C again to exit at once).\n');
    bar.update({ done: 2, sent: 2, notEnrolled: 1 });
    stream.write('partner-sdk warn  shared rate budget: Redis unreachable');
    bar.update({ done: 3, sent: 3, notEnrolled: 1 });
    bar.stop();
    stream.write('crp: The API key was refused (401 unauthorized).\n');
    const lines = screen(written());
    expect(lines).toContain('crp: SIGINT: stopping enrolling (press Ctrl-C again to exit at once).');
    expect(lines).toContain('partner-sdk warn  shared rate budget: Redis unreachable');
    expect(lines.at(-1)).toBe('crp: The API key was refused (401 unauthorized).');
    // The bar's last frame sits just above the error, once, with the last figures.
    expect(lines.at(-2)).toMatch(/75% \| 3\/4 rows \| [\d.]+ rows\/s sent \| ETA \S+ \| 1 not enrolled$/);
    expect(lines.filter((l) => / rows\/s /.test(l))).toHaveLength(1);
    // stream.write is the stream's own again after stop.
    expect(Object.hasOwn(stream, 'write')).toBe(false);
  });

  it('without other output, the bar is one line and the cursor comes back', () => {
    const { stream, written } = fakeTerminal();
    const bar = progress(stream, true, { unit: 'rows', total: 2 });
    bar.update({ done: 2, sent: 2, notEnrolled: 0 });
    bar.stop();
    stream.write('2 rows: 2 enrolled\n');
    expect(screen(written())).toEqual([
      expect.stringMatching(/100% \| 2\/2 rows .* 0 not enrolled$/),
      '2 rows: 2 enrolled',
    ]);
    expect(written()).toContain('\x1b[?25h');
  });
});

/** The bar's line as the terminal shows it now. */
const barLine = (written: string) =>
  screen(written)
    .filter((l) => l.includes(' rows/s '))
    .at(-1) ?? '';
const rateOf = (line: string) => Number(/\| ([\d.]+) rows\/s sent/.exec(line)?.[1]);

describe('the figures tell the truth, on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('while the run waits for the budget, each frame shows the rate falling and the ETA counting the wait (no frame redrawn as it was)', () => {
    const { stream, written } = fakeTerminal();
    // The key allows 14 rows a minute: the first 14 go at once, then the run waits for the next window.
    let budget: RateLimitState = { limit: 14, remaining: 14, resetAt: new Date(60_000), windowMs: 60_000 };
    const bar = progress(stream, true, { unit: 'rows', total: 30, budget: () => budget, now: Date.now });
    for (let i = 1; i <= 14; i++) {
      vi.advanceTimersByTime(70);
      budget = { ...budget, remaining: 14 - i };
      bar.update({ done: i, sent: i, notEnrolled: 0 });
    }
    // cli-progress draws a frame every 200 ms from the start: read the frames drawn at 2 s, 3 s … 6 s.
    vi.advanceTimersByTime(1000 - 14 * 70);
    const frames: string[] = [];
    for (let s = 0; s < 5; s++) {
      vi.advanceTimersByTime(1000);
      frames.push(barLine(written()));
    }
    const rates = frames.map(rateOf);
    expect(rates[0]).toBeCloseTo(7, 0); // 14 rows in 2 s
    for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeLessThan(rates[i - 1] as number);
    expect(new Set(frames).size).toBe(frames.length);
    // At 6 s: 54 s until the window resets, then 16 rows at 14 a minute.
    expect(frames.at(-1)).toMatch(/ 2\.3 rows\/s sent \| ETA 2m03s \| 0 not enrolled$/);
    bar.stop();
  });

  it('rows skipped on resume do not count towards the rate; rows sent do', () => {
    const { stream, written } = fakeTerminal();
    const bar = progress(stream, true, { unit: 'rows', total: 200, now: Date.now });
    vi.advanceTimersByTime(100);
    bar.update({ done: 100, sent: 0, notEnrolled: 0 }); // read back from the --resume report, nothing sent
    vi.advanceTimersByTime(900);
    bar.update({ done: 101, sent: 1, notEnrolled: 0 });
    vi.advanceTimersByTime(1000);
    bar.update({ done: 102, sent: 2, notEnrolled: 0 });
    vi.advanceTimersByTime(200); // the next frame: 2 rows sent in 2.2 s, not 102
    expect(rateOf(barLine(written()))).toBe(0.9);
    // 98 rows left at 0.9 rows/s.
    expect(barLine(written())).toMatch(/51% \| 102\/200 rows \| 0\.9 rows\/s sent \| ETA 1m48s \|/);
    bar.stop();
  });

  it('a stopped run: the bar stays where the run was, and says stopped instead of an ETA', () => {
    const { stream, written } = fakeTerminal();
    const bar = progress(stream, true, { unit: 'rows', total: 10, now: Date.now });
    vi.advanceTimersByTime(1000);
    bar.update({ done: 3, sent: 3, notEnrolled: 1 });
    // The 7 rows the stop left unsent are reported, but are not progress.
    bar.stop(true);
    expect(barLine(written())).toMatch(/ 30% \| 3\/10 rows \| [\d.]+ rows\/s sent \| stopped \| 1 not enrolled$/);
    expect(written()).not.toContain('100%');
  });

  it('plain lines (logs, CI): the same figures, a stopped run says so', () => {
    let out = '';
    const stream = new Writable({
      write: (chunk, _e, done) => ((out += String(chunk)), done()),
    }) as unknown as NodeJS.WriteStream;
    const lines = progress(stream, true, { unit: 'rows', total: 10, everyMs: 1000, now: Date.now });
    vi.advanceTimersByTime(100);
    lines.update({ done: 5, sent: 0, notEnrolled: 0 });
    vi.advanceTimersByTime(1900);
    lines.update({ done: 6, sent: 1, notEnrolled: 1 });
    lines.stop(true);
    expect(out.split('\n')).toEqual([
      '6/10 rows (60%), 0.5 rows/s, 1 not enrolled, ETA 8s',
      '6/10 rows (60%), 0.5 rows/s, 1 not enrolled, stopped',
      '',
    ]);
  });
});
