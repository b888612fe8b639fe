import { PartnerError } from '../index.js';

/** What went wrong with the mirror's database, as a stable string to branch on. */
export type MirrorDatabaseProblem =
  | 'unreachable'
  | 'authentication'
  | 'read_only'
  | 'disk_full'
  | 'schema_newer'
  | 'schema_altered'
  | 'failed';

/**
 * The mirror's database refused or lost the sync. The message names the database (`host:port/db`
 * or the embedded folder), never its password, and says what to do. Nothing of the change in
 * progress was committed: the next run goes on from the last commit.
 */
export class MirrorDatabaseError extends PartnerError {
  declare readonly code: 'mirror_database_error';
  /** The database, as `host:port/database` or the embedded folder: never with its password. */
  readonly database: string;
  /** What went wrong: `unreachable`, `authentication`, `read_only`, `disk_full`, `schema_newer`, `schema_altered` or `failed`. */
  readonly problem: MirrorDatabaseProblem;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(problem: MirrorDatabaseProblem, database: string, message: string, options?: ErrorOptions) {
    super('mirror_database_error', message, options?.cause === undefined ? {} : { cause: options.cause });
    this.database = database;
    this.problem = problem;
  }
}

/** SQLSTATE classes and node errors, to the problem they mean. */
function problemOf(error: unknown): MirrorDatabaseProblem {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (code === '28P01' || code === '28000') return 'authentication';
  if (code === '25006') return 'read_only';
  if (code === '53100') return 'disk_full';
  if (code === '42703' || code === '42P01' || code === '42804' || code === '23502' || code === '42P10')
    return 'schema_altered';
  if (
    typeof code === 'string' &&
    ([
      'ECONNREFUSED',
      'ECONNRESET',
      'ENOTFOUND',
      'ETIMEDOUT',
      'EPIPE',
      'EHOSTUNREACH',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08003',
      '3D000',
    ].includes(code) ||
      code.startsWith('08'))
  ) {
    return 'unreachable';
  }
  if (/Connection terminated|connection is closed|Client has encountered a connection error|not queryable/i.test(text))
    return 'unreachable';
  return 'failed';
}

const ADVICE: Record<MirrorDatabaseProblem, string> = {
  unreachable:
    'Check that the server runs and the URL (host, port, database) is right; the next run goes on from the last commit.',
  authentication: 'Check the user and password in the connection string (or PGPASSWORD).',
  read_only: "It is read-only (a replica, or default_transaction_read_only): give the primary's URL.",
  disk_full: "The server's disk is full: free space, then run again; nothing of the change in progress was committed.",
  schema_newer: 'Upgrade @crp/partner-sdk to the version that wrote it, or sync into another schema.',
  schema_altered:
    'A table of the mirror was changed by hand: restore its columns (docs/sync.md lists them) or sync into a new schema.',
  failed: 'Nothing of the change in progress was committed; the next run goes on from the last commit.',
};

/** The database's own words, without anything that could carry a secret (a URL in a message). */
function reasonOf(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text = (typeof message === 'string' && message) || (typeof code === 'string' && code) || String(error);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, '<url>').slice(0, 300);
}

/** Any failure of a statement or connection, as one `MirrorDatabaseError` naming the database. */
export function databaseError(error: unknown, database: string, doing: string): MirrorDatabaseError | Error {
  if (error instanceof PartnerError) return error;
  const problem = problemOf(error);
  return new MirrorDatabaseError(
    problem,
    database,
    `The mirror's database ${database} failed while ${doing}: ${reasonOf(error)}. ${ADVICE[problem]}`,
    { cause: error },
  );
}

/** A problem the mirror found itself (a newer schema, a changed table). */
export function schemaError(
  problem: 'schema_newer' | 'schema_altered',
  database: string,
  what: string,
): MirrorDatabaseError {
  return new MirrorDatabaseError(problem, database, `The mirror's database ${database}: ${what}. ${ADVICE[problem]}`);
}
