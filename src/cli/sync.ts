/** `crp sync`: `syncToPostgres()` of `@crp/partner-sdk/postgres`, for operators. */
import { resolve } from 'node:path';
import { syncToPostgres, type SyncProgress } from '../postgres/index.js';
import { COMMON_HELP, EXIT, UsageError, clientFrom, parse, stopOnSignal, type Command } from './command.js';

/** Where the embedded database lives without --database or --dir. */
export const DEFAULT_DIR = 'crp-mirror';

/** --database or --dir, for crp sync and crp query alike. */
export const DATABASE_OPTIONS = {
  database: { type: 'string' },
  dir: { type: 'string' },
  schema: { type: 'string' },
} as const;

/** The database the flags name; an embedded folder is found from `cwd` (the command's `io.cwd`). */
export function databaseOf(
  values: { database?: string | undefined; dir?: string | undefined },
  cwd: string,
): { connectionString: string } | { embedded: string } {
  if (values.database !== undefined && values.dir !== undefined)
    throw new UsageError('give --database (a Postgres server) or --dir (an embedded database), not both.');
  if (values.database !== undefined) {
    if (!/^postgres(ql)?:\/\//i.test(values.database))
      throw new UsageError('--database takes a postgres:// URL, e.g. postgres://user@db.internal:5432/partner');
    return { connectionString: values.database };
  }
  return { embedded: resolve(cwd, values.dir ?? DEFAULT_DIR) };
}

export const sync: Command = {
  usage: `Usage: crp sync [--database postgres://…] [--dir FOLDER] [--schema NAME] [--once] [--standby]
                [--budget-share SHARE] [--lease-ms MS]

Keep tables of your own database current with the service: stores, bookings, videos and monthly
billing (schema crp), each change exactly once, with the position of the stream in the same
transaction. Without --once it runs until Ctrl-C or SIGTERM and stops cleanly.

  --database URL       a Postgres server (postgres://user:password@host:5432/db; the password is
                       never printed). Without it, an embedded database (PGlite) in --dir
  --dir FOLDER         the embedded database's folder (default ./${DEFAULT_DIR})
  --schema NAME        the tables' schema (default crp)
  --once               load everything (or catch up), exit 0 when the tables match the service
  --standby            while another crp sync writes the schema, wait and take over when it stops
                       or dies (Postgres server only)
  --budget-share SHARE share of the key's rate budget, above 0 and at most 1 (default 0.5)
  --lease-ms MS        how long a writer that died keeps the schema (default 15000)

Progress: on a terminal, a line that updates; otherwise one JSON line a minute on stdout.

${COMMON_HELP}

Example:
  crp sync --once && crp query "select status, count(*) from crp.bookings group by status"
  crp sync --database "$DATABASE_URL" --standby       # on each replica`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      ...DATABASE_OPTIONS,
      once: { type: 'boolean' },
      standby: { type: 'boolean' },
      'budget-share': { type: 'string' },
      'lease-ms': { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const database = databaseOf(values, io.cwd);
    const budgetShare = numberOf('--budget-share', values['budget-share']);
    const leaseMs = numberOf('--lease-ms', values['lease-ms']);
    const client = clientFrom(values, io);
    const schema = values.schema ?? 'crp';
    if ('embedded' in database) {
      io.stderr.write(
        `crp sync: an embedded database in ${database.embedded} (no server needed). Look at it with:\n` +
          `  crp query --dir ${database.embedded} "select status, count(*) from ${schema}.bookings group by status"\n`,
      );
    }
    const controller = new AbortController();
    const unhook = stopOnSignal(controller, io, 'syncing');
    const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true && !values.json;
    let lastLine = 0;
    const onProgress = (p: SyncProgress) => {
      if (terminal)
        io.stderr.write(
          `\r\x1b[Kcrp sync: ${p.events} changes, ${p.storeReads} store reads, ${p.calls} calls, ${p.reconciliations} full passes (${p.database})`,
        );
      else if (Date.now() - lastLine >= 60_000) {
        lastLine = Date.now();
        io.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...p })}\n`);
      }
    };
    try {
      const done = await syncToPostgres(client, {
        ...database,
        schema,
        signal: controller.signal,
        once: values.once ?? false,
        standby: values.standby ?? false,
        onProgress,
        ...(budgetShare !== undefined ? { budgetShare } : {}),
        ...(leaseMs !== undefined ? { leaseMs } : {}),
      });
      if (terminal) io.stderr.write('\n');
      const line = values.once && !controller.signal.aborted ? 'the tables match the service' : 'stopped';
      if (values.json) io.stdout.write(`${JSON.stringify({ done: line, ...done })}\n`);
      else
        io.stderr.write(
          `crp sync: ${line}: ${done.events} changes applied, ${done.storeReads} store reads, ${done.calls} calls (${done.database}).\n`,
        );
      return EXIT.ok;
    } finally {
      unhook();
      await client.close();
    }
  },
};

function numberOf(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} takes a number; got ${JSON.stringify(text)}`);
  return n;
}
