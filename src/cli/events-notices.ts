/**
 * What `crp events tail` says on stderr (stdout carries only the events): where it starts from,
 * a heartbeat while no event comes (at most one a minute, so a quiet stream is not a dead one),
 * and what it did when it ends.
 */
import type { WatchStats } from '../events/index.js';
import { duration } from './progress.js';

export interface TailNotices {
  /** An event was written. */
  event(): void;
  /** The run ended: the summary line, and no heartbeat after it. */
  end(stats: WatchStats | undefined): void;
}

export interface TailNoticeOptions {
  /** The watcher's figures so far, for the heartbeat. */
  stats(): WatchStats | undefined;
  now?: () => number;
  /** The shortest gap between two heartbeats, and the quiet that earns one. @default 60_000 */
  everyMs?: number;
}

export function tailNotices(
  stderr: NodeJS.WritableStream,
  from: string,
  { stats, now = Date.now, everyMs = 60_000 }: TailNoticeOptions,
): TailNotices {
  const started = now();
  let lastSign = started; // the last event or heartbeat
  let events = 0;
  stderr.write(`crp: watching ${from}. Events go to stdout; Ctrl-C stops.\n`);
  // Checked more often than a heartbeat is due, so one comes within a few seconds of its minute.
  const timer = setInterval(
    () => {
      const quiet = now() - lastSign;
      if (quiet < everyMs) return;
      lastSign = now();
      const s = stats();
      const figures = s ? ` (${s.polls} polls, ${s.errors} failed, lock ${s.lock})` : '';
      stderr.write(
        `crp: still watching: no new event in ${duration(quiet)}; ${events} so far in ${duration(now() - started)}${figures}.\n`,
      );
    },
    Math.min(everyMs, 5_000),
  );
  timer.unref();
  return {
    event() {
      events += 1;
      lastSign = now();
    },
    end(s) {
      clearInterval(timer);
      const figures = s
        ? `, ${s.calls} calls, ${s.polls} polls (${s.errors} failed), ${s.reconciliations} full reconciliations`
        : '';
      stderr.write(`crp: watched for ${duration(now() - started)}: ${events} events${figures}.\n`);
    },
  };
}

/** Where a tail starts, in words: the flags, and for a file whether it holds a position yet. */
export function startingPoint(
  checkpoint: string | undefined,
  from: 'now' | 'beginning',
  fileHasPosition: boolean | undefined,
  key?: string,
): string {
  const fresh =
    from === 'now' ? 'from now (changes made from here on)' : 'from the beginning (first everything that exists)';
  if (checkpoint === undefined) return `${fresh}; without --checkpoint the position is not kept`;
  if (fileHasPosition === undefined)
    return `from the position in the checkpoint ${key ?? 'crp-events'} at ${redacted(checkpoint)}, or, if it holds none yet, ${fresh}`;
  return fileHasPosition
    ? `from the position saved in ${checkpoint}`
    : `${fresh}; ${checkpoint} holds no position yet and keeps it from here on`;
}

/** A Redis URL without its password. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
