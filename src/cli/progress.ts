/**
 * Progress on stderr: a bar redrawn in place with rate and ETA on a terminal (cli-progress), a
 * plain line at most every `everyMs` otherwise (logs, CI), nothing with --json.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, problems: number): void;
  /** The last figures, then release the terminal line. */
  stop(): void;
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
}

export function progress(stream: NodeJS.WriteStream, enabled: boolean, options: ProgressOptions): Progress {
  if (!enabled) return { update: () => undefined, stop: () => undefined };
  return stream.isTTY && !options.plain ? bar(stream, options) : plainLines(stream, options);
}

function bar(stream: NodeJS.WriteStream, { unit, total }: ProgressOptions): Progress {
  const started = Date.now();
  const display = new cliProgress.SingleBar(
    {
      stream,
      format: `{bar} {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted} | {problems} not done`,
      hideCursor: true,
      etaBuffer: 100,
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
  display.start(total ?? 0, 0, { rate: '0', problems: 0 });
  const release = keepLinesOffTheBar(stream, display);
  return {
    update(done, problems) {
      display.update(done, { rate: rateOf(done, Date.now() - started), problems });
    },
    stop() {
      release();
      display.stop();
    },
  };
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

function plainLines(stream: NodeJS.WriteStream, { unit, total, everyMs = 5000, now = Date.now }: ProgressOptions): Progress {
  const started = now();
  let lastAt = started;
  let last = { done: 0, problems: 0 };
  const line = () => {
    const elapsed = now() - started;
    const rate = Number(rateOf(last.done, elapsed));
    const share = total ? ` (${Math.floor((last.done / total) * 100)}%)` : '';
    const eta = total && rate > 0 && last.done < total ? `, ETA ${duration(((total - last.done) / rate) * 1000)}` : '';
    const problems = last.problems > 0 ? `, ${last.problems} not done` : '';
    stream.write(`${last.done}${total ? `/${total}` : ''} ${unit}${share}, ${rate.toFixed(1)} ${unit}/s${problems}${eta}\n`);
  };
  return {
    update(done, problems) {
      last = { done, problems };
      if (now() - lastAt >= everyMs) {
        lastAt = now();
        line();
      }
    },
    stop: line,
  };
}

function rateOf(done: number, elapsedMs: number): string {
  return elapsedMs > 0 ? ((done * 1000) / elapsedMs).toFixed(1) : '0';
}

/** `1h02m`, `4m10s`, `12s`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}
