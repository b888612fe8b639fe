/**
 * Progress on stderr: a bar redrawn in place with rate and ETA on a terminal (cli-progress), a
 * plain line at most every `everyMs` otherwise (logs, CI), nothing with --json. The figures are
 * computed for each frame (progress-figures.ts), so a frame drawn while the run waits shows the wait.
 */
import cliProgress from 'cli-progress';
import type { RateLimitState } from '../index.js';
import { figures, type Counts, type Figures } from './progress-figures.js';

export type { Counts } from './progress-figures.js';

export interface Progress {
  update(counts: Counts): void;
  /** The last figures, then release the terminal line. `stopped`: the run was stopped (Ctrl-C) before its end. */
  stop(stopped?: boolean): void;
}

export interface ProgressOptions {
  /** What is counted, e.g. `rows`. */
  unit: string;
  total: number | undefined;
  /** Plain lines even on a terminal (a count without a total has no bar to draw). */
  plain?: boolean;
  /** Plain mode: the longest gap between two lines. @default 5000 */
  everyMs?: number;
  now?: () => number;
  /** The key's budget as the service last told it (`client.rateLimit`), for the ETA. */
  budget?: () => RateLimitState | undefined;
}

/** What the bar and the lines call the rows that ended without being enrolled (a stop's unsent rows are not among them). */
export const NOT_ENROLLED = 'not enrolled';

export function progress(stream: NodeJS.WriteStream, enabled: boolean, options: ProgressOptions): Progress {
  if (!enabled) return { update: () => undefined, stop: () => undefined };
  return stream.isTTY && !options.plain ? bar(stream, options) : plainLines(stream, options);
}

function bar(stream: NodeJS.WriteStream, { unit, total, now = Date.now, budget }: ProgressOptions): Progress {
  const figured = figures({ total, now, budget });
  const display = new cliProgress.SingleBar(
    {
      stream,
      format: `{bar} {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s sent | {left} | {notEnrolled} ${NOT_ENROLLED}`,
      hideCursor: true,
      fps: 5,
      // A line someone else wrote clears the bar (below); the next frame must draw it again.
      forceRedraw: true,
    },
    cliProgress.Presets.shades_classic,
  );
  // cli-progress saves the cursor at start and restores it at stop: anything written in between
  // (a Ctrl-C notice, an SDK warning) would then be overwritten by what comes after the bar.
  const terminal = (display as unknown as { terminal: { cursorSave(): void; cursorRestore(): void } }).terminal;
  terminal.cursorSave = () => undefined;
  terminal.cursorRestore = () => undefined;
  const payload = (stopped = false) => {
    const f = figured.at();
    return {
      rate: f.rate.toFixed(1),
      left: stopped ? 'stopped' : etaText(f),
      notEnrolled: figured.counts().notEnrolled,
    };
  };
  // Every frame cli-progress draws (five a second, also between two outcomes, while the run waits
  // for the budget) gets the figures of its own moment, not those of the last update.
  const internals = display as unknown as { payload: Record<string, unknown>; render(force?: boolean): void };
  const render = internals.render.bind(display);
  let final: boolean | undefined;
  internals.render = (force) => {
    internals.payload = payload(final);
    render(force);
  };
  display.start(total ?? 0, 0, payload());
  const release = keepLinesOffTheBar(stream, display);
  return {
    update(counts) {
      figured.record(counts);
      display.update(counts.done);
    },
    stop(stopped = false) {
      final = stopped;
      release();
      display.stop();
    },
  };
}

function etaText(f: Figures): string {
  return f.etaMs === undefined ? 'ETA ?' : `ETA ${duration(f.etaMs)}`;
}

/**
 * While the bar is on screen, a line written to its stream by anyone else (the command's own
 * notices, the SDK's console logger) first clears the bar's line, so the text starts on a clean
 * line and the bar's next frame is drawn below it instead of over it.
 */
function keepLinesOffTheBar(stream: NodeJS.WriteStream, display: cliProgress.SingleBar): () => void {
  const write = stream.write;
  const ownWrite = Object.hasOwn(stream, 'write');
  let drawing = false;
  let barShown = true;
  let midLine = false;
  display.on('redraw-pre', () => {
    drawing = true;
    // Text that did not end its line gets its own line before the bar is drawn again.
    if (midLine) write.call(stream, '\n');
    midLine = false;
  });
  display.on('redraw-post', () => {
    drawing = false;
    barShown = true;
  });
  stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (!drawing) {
      if (barShown) write.call(stream, '\r\x1b[2K');
      barShown = false;
      const text = typeof chunk === 'string' ? chunk : String(chunk);
      if (text.length > 0) midLine = !text.endsWith('\n');
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as NodeJS.WriteStream['write'];
  return () => {
    if (ownWrite) stream.write = write;
    else delete (stream as Partial<NodeJS.WriteStream>).write;
    if (midLine) write.call(stream, '\n');
    midLine = false;
  };
}

function plainLines(
  stream: NodeJS.WriteStream,
  { unit, total, everyMs = 5000, now = Date.now, budget }: ProgressOptions,
): Progress {
  const figured = figures({ total, now, budget });
  let lastAt = now();
  const line = (stopped: boolean) => {
    const { done, notEnrolled } = figured.counts();
    const f = figured.at();
    const share = total ? ` (${Math.floor((done / total) * 100)}%)` : '';
    const eta = stopped
      ? ', stopped'
      : total && f.etaMs !== undefined && done < total
        ? `, ETA ${duration(f.etaMs)}`
        : '';
    const problems = notEnrolled > 0 ? `, ${notEnrolled} ${NOT_ENROLLED}` : '';
    stream.write(
      `${done}${total ? `/${total}` : ''} ${unit}${share}, ${f.rate.toFixed(1)} ${unit}/s${problems}${eta}\n`,
    );
  };
  return {
    update(counts) {
      figured.record(counts);
      if (now() - lastAt >= everyMs) {
        lastAt = now();
        line(false);
      }
    },
    stop: (stopped = false) => line(stopped),
  };
}

/** `1h02m`, `4m10s`, `12s`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}
