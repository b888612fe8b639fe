/** What every `crp` command shares: its options, the client, the streams, and how a failure is told. */
import { isAbsolute } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PartnerClient } from '../client.js';
import { isPartnerError } from '../core/errors.js';

/** Exit codes: everything done; some rows failed (the report says which and why); could not run. */
export const EXIT = { ok: 0, couldNotRun: 1, someFailed: 2 } as const;

/**
 * What a command takes from its process, passed in so that each command names what it uses and a
 * test can run `crp` inside its own process (test/cli/in-process.ts).
 */
export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** The folder relative paths are read against (the files named on the command line). */
  cwd: string;
  /** Calls `handler` on Ctrl-C (SIGINT) and SIGTERM; returns the function that stops it. */
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Ends the command at once with `code`, without what is still running (a second Ctrl-C). */
  exit(code: number): void;
}

/** The Io of the process itself: what the `crp` bin passes to `main`. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    onSignal(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
    exit: (code) => process.exit(code),
  };
}

/** A command-line mistake: the message and a line pointing to the command's --help are printed, exit 1. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Something the command needs is not there (the key, a file): the arguments were right, so the
 * usage would only bury the one line that says what to do. Exit 1.
 */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/** `value` if it is one of `allowed`; else a UsageError that names the flag and lists the values. */
export function oneOf<const T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be ${allowedList(allowed)}; got ${JSON.stringify(value)}.`);
}

/** `a, b or c`. */
export function allowedList(values: readonly string[]): string {
  return values.length < 2 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** Options every command takes. */
export const COMMON_OPTIONS = {
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const COMMON_HELP = `Common options:
  --api-key KEY      the API key (default: $PARTNER_API_KEY; prefer the variable: flags show in ps)
  --base-url URL     the service address, without /partner/v1 (default: $PARTNER_API_BASE_URL)
  --json             print the result as JSON on stdout (errors as JSON on stderr), no progress
  -h, --help         this help`;

export interface Command {
  /** One screen of help, with an example. */
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}

/** parseArgs with the common options; unknown options (with the closest known one) and missing values become a UsageError. */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  const all = { ...COMMON_OPTIONS, ...options };
  try {
    return parseArgs({ args, options: all, allowPositionals: true, strict: true });
  } catch (error) {
    const unknown =
      (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'(-[^']*)'/.exec((error as Error).message)?.[1]
        : undefined;
    if (unknown === undefined) throw new UsageError((error as Error).message);
    const near = closest(unknown.replace(/^-+/, '').split('=')[0] as string, Object.keys(all));
    throw new UsageError(`unknown option ${unknown}${near ? `; did you mean --${near}?` : ''}`);
  }
}

/** The candidate nearest to `word` by edit distance, if it is near enough to be a slip of the fingers. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && distance < (best?.distance ?? Infinity))
      best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The client, from the flags or the environment. Its own ConfigurationError says what is missing (never the key). */
export function clientFrom(
  values: { 'api-key'?: string | undefined; 'base-url'?: string | undefined },
  io: Io,
): PartnerClient {
  const apiKey = values['api-key'] || io.env.PARTNER_API_KEY;
  const baseUrl = values['base-url'] || io.env.PARTNER_API_BASE_URL;
  if (!apiKey) throw new SetupError('No API key: set PARTNER_API_KEY (or pass --api-key).');
  if (!baseUrl)
    throw new SetupError(
      'No service address: set PARTNER_API_BASE_URL (or pass --base-url), e.g. http://127.0.0.1:4010 for crp-sandbox.',
    );
  return new PartnerClient({ apiKey, baseUrl });
}

/**
 * Tell a failure that stopped the command, and return the exit code for it. `help`: the command
 * that shows the usage (`crp enroll --help`), pointed to after a usage error (the usage itself
 * would scroll the error away).
 */
export function reportFailure(failure: unknown, io: Io, json: boolean, help?: string): number {
  const error = fileProblem(failure, io.cwd) ?? failure;
  if (json) {
    const record = isPartnerError(error)
      ? error.toJSON()
      : { name: (error as Error)?.name ?? 'Error', message: messageOf(error) };
    io.stderr.write(`${JSON.stringify({ error: record })}\n`);
  } else {
    const message = messageOf(error);
    // The service's errors already name their request id in the message.
    const id = isPartnerError(error) && 'requestId' in error ? error.requestId : undefined;
    const requestId = id && !message.includes(id) ? ` (request id ${id})` : '';
    io.stderr.write(`crp: ${message}${requestId}\n`);
    if (error instanceof UsageError && help) io.stderr.write(`Run ${help} for the usage.\n`);
  }
  return EXIT.couldNotRun;
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
};

/**
 * A file the command could not open (a --resume report, an --out directory): one line naming it and
 * what to do. `path`: as the command line gave it, read against `cwd`.
 */
export function fileProblem(
  error: unknown,
  cwd: string,
  path = (error as NodeJS.ErrnoException | null)?.path,
): SetupError | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const problem = code === undefined ? undefined : FILE_PROBLEMS[code];
  if (problem === undefined || typeof path !== 'string') return undefined;
  const where = isAbsolute(path) ? '' : ` (relative to ${cwd})`;
  return new SetupError(`cannot open ${path}: ${problem}. Check the path${where}.`, { cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Ctrl-C (SIGINT) or SIGTERM aborts `controller` once, so the command stops and still writes what
 * it has; a second Ctrl-C exits at once. Returns the function that removes the handlers.
 */
export function stopOnSignal(controller: AbortController, io: Io, what: string): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr.write(`\ncrp: ${signal} again: exiting now; the report may be incomplete.\n`);
      io.exit(EXIT.couldNotRun);
      return;
    }
    io.stderr.write(`\ncrp: ${signal}: stopping ${what} (press Ctrl-C again to exit at once).\n`);
    controller.abort(new Error(`stopped by ${signal}`));
  };
  return io.onSignal(onSignal);
}
