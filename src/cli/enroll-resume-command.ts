/**
 * After a stop: the command that goes on where the run stopped, ready to paste, and which rows
 * were sent (what the progress rate counts).
 */
import type { EnrollOutcome } from '../bulk/index.js';
import { reportFormat } from './enroll-report.js';

/** Whether a call was made for the row (rows decided before sending, or skipped, were not sent). */
export function wasSent(outcome: EnrollOutcome): boolean {
  switch (outcome.status) {
    case 'created':
    case 'already_enrolled':
      return outcome.sameAs === undefined;
    case 'invalid':
      return outcome.error.requestId !== undefined;
    case 'conflict':
      return outcome.error !== undefined || (outcome.conflictsWith === undefined && outcome.earlierRun === undefined);
    case 'failed':
      return true;
    default:
      return false;
  }
}

export interface RunOptions {
  concurrency?: string | undefined;
  'raw-csv'?: boolean | undefined;
  'base-url'?: string | undefined;
}

/**
 * `crp enroll FILE --resume RUN.jsonl --report RUN.2.jsonl …`: resumed from the run's `.jsonl`
 * report, each report written anew under the next free number (a report may not be the --resume
 * file). The key is never in it: it comes from the environment, as it did.
 */
export function resumeCommand(
  file: string,
  reports: readonly string[],
  options: RunOptions,
): { command: string; resumes: boolean } {
  const jsonl = reports.find((path) => reportFormat(path) === 'jsonl');
  const args = ['crp', 'enroll', file];
  if (jsonl) args.push('--resume', jsonl);
  for (const path of reports) args.push('--report', nextName(path));
  if (options.concurrency !== undefined) args.push('--concurrency', options.concurrency);
  if (options['raw-csv']) args.push('--raw-csv');
  if (options['base-url']) args.push('--base-url', options['base-url']);
  return { command: args.map(shellWord).join(' '), resumes: jsonl !== undefined };
}

/** `run.jsonl` → `run.2.jsonl`, `run.2.jsonl` → `run.3.jsonl`. */
export function nextName(path: string): string {
  const match = /^(.*?)(?:\.(\d+))?(\.[^./\\]+)$/.exec(path);
  if (!match) return `${path}.2`;
  const [, stem, n, ext] = match;
  return `${stem}.${n === undefined ? 2 : Number(n) + 1}${ext}`;
}

/** A word a POSIX shell reads back as it is. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
