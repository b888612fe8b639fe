/**
 * `crp enroll --resume REPORT.jsonl`: an earlier run's `.jsonl` report read back for
 * `enrollMany({ resume })`. A line the run was writing when it crashed (the file ends inside it) is
 * left out and told; any other line that is not a record `crp enroll` writes refuses the file,
 * naming the line: a record read wrongly would skip a row that was never enrolled, or turn it into
 * a conflict.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { EnrollResumeRecord, EnrollStatus } from '../bulk/index.js';
import { SetupError, UsageError } from './command.js';

const STATUSES: ReadonlySet<string> = new Set<EnrollStatus>([
  'created',
  'already_enrolled',
  'skipped',
  'invalid',
  'conflict',
  'failed',
  'not_attempted',
]);
const CONTENT_HASH = /^[0-9a-f]{64}$/;

export interface ResumeOptions {
  /** The folder a relative path is read against. */
  cwd: string;
  /** Told once the file is read, when its last line was cut short: that line's number. */
  onTornLine?: (line: number) => void;
}

/**
 * The records of an earlier `.jsonl` report, for `enrollMany({ resume })`. A record written before
 * reports had `content_hash` has none: enrollMany then skips nothing for it, and sends its row again.
 */
export async function* readResume(path: string, options: ResumeOptions): AsyncGenerator<EnrollResumeRecord> {
  if (!/\.(jsonl|ndjson)$/i.test(path))
    throw new UsageError(
      `--resume ${path}: give the .jsonl report of an earlier run (a .csv report lists only the rows not enrolled).`,
    );
  const lines = createInterface({ input: createReadStream(resolve(options.cwd, path)), crlfDelay: Infinity });
  let n = 0;
  let unreadable: number | undefined;
  for await (const text of lines) {
    n += 1;
    if (unreadable !== undefined) throw notJson(path, unreadable);
    if (!text.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      // Only the file's last line may be one a crash cut short; that is known at the end.
      unreadable = n;
      continue;
    }
    yield recordAt(record, n, path);
  }
  if (unreadable === undefined) return;
  if (await endsWithLineBreak(resolve(options.cwd, path))) throw notJson(path, unreadable);
  options.onTornLine?.(unreadable);
}

/** What `--resume` takes from one line, or a SetupError naming the line and what is wrong with it. */
function recordAt(record: unknown, line: number, path: string): EnrollResumeRecord {
  const wrong = (what: string) =>
    new SetupError(
      `--resume ${path}: line ${line} is not a record crp enroll writes (${what}). Nothing was sent. Give the .jsonl report that crp enroll wrote, unedited.`,
    );
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw wrong('not a JSON object');
  const { partner_location_id: id, status, content_hash: hash } = record as Record<string, unknown>;
  if (typeof status !== 'string' || !STATUSES.has(status))
    throw wrong(`status ${JSON.stringify(status) ?? 'missing'}; it is one of ${[...STATUSES].join(', ')}`);
  if (id !== undefined && typeof id !== 'string')
    throw wrong(`partner_location_id ${JSON.stringify(id)} is not a string`);
  if (id === undefined && status !== 'invalid' && status !== 'not_attempted' && status !== 'failed')
    throw wrong(`a ${status} row without partner_location_id`);
  if (hash !== undefined && (typeof hash !== 'string' || !CONTENT_HASH.test(hash)))
    throw wrong(`content_hash ${JSON.stringify(hash)} is not 64 hex digits`);
  return { partner_location_id: id, status, contentHash: hash };
}

function notJson(path: string, line: number): SetupError {
  return new SetupError(`--resume ${path}: line ${line} is not JSON; give the .jsonl report that crp enroll wrote.`);
}

async function endsWithLineBreak(path: string): Promise<boolean> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    if (size === 0) return true;
    const { buffer } = await file.read(Buffer.alloc(1), 0, 1, size - 1);
    return buffer[0] === 0x0a || buffer[0] === 0x0d;
  } finally {
    await file.close();
  }
}
