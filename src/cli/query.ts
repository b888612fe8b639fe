/** `crp query`: one read-only statement on the mirror's database, as a table or CSV. */
import { openDatabase } from '../postgres/sync.js';
import { MirrorDatabaseError } from '../postgres/index.js';
import { databaseError } from '../postgres/errors.js';
import { COMMON_HELP, EXIT, UsageError, parse, type Command } from './command.js';
import { RAW_CSV_HELP, RAW_CSV_OPTION, csvRecord, type Cell } from './csv-out.js';
import { DATABASE_OPTIONS, DEFAULT_DIR, databaseOf } from './sync.js';

export const query: Command = {
  usage: `Usage: crp query "SQL" [--database postgres://…] [--dir FOLDER] [--csv] [--raw-csv]

Run one read-only statement on the database crp sync fills (the embedded one in ./${DEFAULT_DIR}
by default) and print the rows as a table, or as CSV with --csv. Nothing can be changed: the
statement runs in a read-only transaction.

  --database URL   a Postgres server (postgres://…)
  --dir FOLDER     the embedded database's folder (default ./${DEFAULT_DIR})
  --csv            CSV with a header line instead of a table
${RAW_CSV_HELP}

${COMMON_HELP}

Example:
  crp query "select partner_location_id, status, count(*) from crp.bookings group by 1, 2" --csv`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...DATABASE_OPTIONS, csv: { type: 'boolean' }, ...RAW_CSV_OPTION });
    const [sql, ...extra] = positionals;
    if (!sql) throw new UsageError('crp query takes the SQL to run, in quotes.');
    if (extra.length) throw new UsageError(`unexpected argument ${extra[0]} (put the SQL in quotes)`);
    const db = await openDatabase(databaseOf(values, io.cwd));
    let rows: Record<string, unknown>[];
    try {
      const session = await db.session();
      try {
        await session.query('begin transaction read only');
        try {
          rows = (await session.query(sql)).rows;
        } finally {
          await session.query('rollback').catch(() => undefined);
        }
      } catch (error) {
        const failure = databaseError(error, db.name, 'running the query');
        // The statement's own mistake is the operator's to fix: told as it is, with the database.
        if (failure instanceof MirrorDatabaseError && failure.problem === 'failed')
          throw new UsageError(`${db.name}: ${(error as Error).message}`);
        throw failure;
      } finally {
        session.release();
      }
    } finally {
      await db.close();
    }
    const columns = rows.length > 0 ? Object.keys(rows[0] as object) : [];
    const cells = rows.map((row) => columns.map((c) => text(row[c])));
    if (values.json) {
      for (const row of rows) io.stdout.write(`${JSON.stringify(row)}\n`);
    } else if (values.csv) {
      const record = csvRecord(values['raw-csv']);
      io.stdout.write(record(columns));
      for (const row of cells) io.stdout.write(record(row as Cell[]));
    } else {
      const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length))));
      const line = (values: string[]) =>
        values
          .map((v, i) => v.slice(0, 60).padEnd(widths[i] ?? 0))
          .join(' | ')
          .trimEnd();
      io.stdout.write(`${line(columns)}\n${widths.map((w) => '-'.repeat(w)).join('-+-')}\n`);
      for (const row of cells) io.stdout.write(`${line(row)}\n`);
      io.stdout.write(`(${rows.length} row${rows.length === 1 ? '' : 's'})\n`);
    }
    return EXIT.ok;
  },
};

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
