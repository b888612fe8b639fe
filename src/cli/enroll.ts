/** `crp enroll stores.csv`: every store of a CSV file through `enrollMany()` of `@crp/partner-sdk/bulk`. */
import type { EnrollLocationBody } from '../index.js';
import { enrollMany, type EnrollCounts } from '../bulk/index.js';
import {
  COMMON_HELP,
  EXIT,
  SetupError,
  UsageError,
  clientFrom,
  parse,
  stopOnSignal,
  type Command,
  type Io,
} from './command.js';
import { RAW_CSV_HELP, RAW_CSV_OPTION } from './csv-out.js';
import { refuseSharedFiles, openAll } from './enroll-files.js';
import { isProblem, openReport, recordOf, reportFormat, type ReportRecord, type RunLines } from './enroll-report.js';
import { readResume } from './enroll-resume.js';
import { resumeCommand, wasSent } from './enroll-resume-command.js';
import { progress } from './progress.js';
import { STORE_COLUMNS, countStores, readStores } from './store-csv.js';

const usage = `Usage: crp enroll STORES.csv [--report FILE]... [--resume REPORT.jsonl] [--concurrency N] [--raw-csv]

Enrolls every store of the file under the key's rate budget (never a 429). A row already
enrolled with the same data counts as done, so the file can be fed again after fixing it.
A row whose call fails after the service may have acted (a 5xx, a time-out) is settled by
reading the store. Lines with the same partner_location_id run one after the other and the
first decides: a later line with other content is a conflict, not sent.

  STORES.csv            UTF-8 (a BOM is fine), header row: ${STORE_COLUMNS}
  --report FILE         write a report as rows finish; repeat for both kinds:
                          .csv    the rows not enrolled (line, id, status, code, field, message)
                          .jsonl  every row's outcome, the input of --resume
                        never the stores file or the --resume report; all are opened
                        before the first call
  --resume REPORT.jsonl skip the rows an earlier run's report lists as enrolled with the
                        same content; a row whose id it lists with other content is a conflict.
                        A last line a crash cut short is left out (and told)
  --concurrency N       rows handed to the client at once (default 16)
${RAW_CSV_HELP}

Ctrl-C stops: calls still waiting are cancelled, the rows not done are reported as
not_attempted, the reports are written, and the command that goes on is printed
(--resume with the .jsonl report).
Exit code: 0 every row enrolled, 2 some rows not (the report says which and why), 1 could not run.

${COMMON_HELP}

Example:
  export PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010
  crp enroll stores.csv --report failures.csv --report run.jsonl
  crp enroll stores.csv --resume run.jsonl --report run2.jsonl`;

/** How many rows each report line counted, CSV-refused rows included. */
type Tally = EnrollCounts & { total: number; confirmed: number };

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    report: { type: 'string', multiple: true },
    resume: { type: 'string' },
    concurrency: { type: 'string' },
    ...RAW_CSV_OPTION,
  });
  const [file, ...extra] = positionals;
  if (!file)
    throw new SetupError(
      'crp enroll needs the CSV file of stores: crp enroll STORES.csv (crp enroll --help lists its columns).',
    );
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  if (values.concurrency !== undefined && !/^[1-9]\d*$/.test(values.concurrency))
    throw new UsageError(`--concurrency must be a whole number, 1 or more; got ${JSON.stringify(values.concurrency)}.`);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  const json = values.json === true;
  const paths = values.report ?? [];
  for (const path of paths) reportFormat(path);
  // Everything that can refuse the run comes before the reports are opened (which empties them).
  const total = await countStores(file, io.cwd);
  const resume = values.resume;
  if (resume) {
    const onTornLine = (line: number) =>
      io.stderr.write(
        `crp: --resume ${resume}: its last line (line ${line}) was cut short, as by a run that crashed while ` +
          `writing it. The ${line - 1} lines before it are used; the row of that line is sent again.\n`,
      );
    for await (const _ of readResume(resume, { cwd: io.cwd, onTornLine }));
  }
  await refuseSharedFiles({ cwd: io.cwd, stores: file, resume: values.resume, reports: paths });
  const client = clientFrom(values, io);
  const opened = await openAll(paths, io.cwd).catch(async (error: unknown) => {
    await client.close();
    throw error;
  });
  const reports = opened.map((file) => ({ path: file.path, writer: openReport(file, values['raw-csv']) }));

  const tally: Tally = {
    total: 0,
    confirmed: 0,
    created: 0,
    already_enrolled: 0,
    skipped: 0,
    invalid: 0,
    conflict: 0,
    failed: 0,
    not_attempted: 0,
  };
  const problems: ReportRecord[] = [];
  const bar = progress(io.stderr, !json, { unit: 'rows', total, budget: () => client.rateLimit });
  let sent = 0;
  const record = async (entry: ReportRecord, called: boolean) => {
    tally.total += 1;
    tally[entry.status] += 1;
    if (called) sent += 1;
    if (entry.confirmed_after) tally.confirmed += 1;
    if (isProblem(entry.status) && problems.length < 20) problems.push(entry);
    for (const report of reports) await report.writer.write(entry);
    // Rows a stop left unsent are not progress: after Ctrl-C the bar stays where the run was.
    bar.update({
      done: tally.total - tally.not_attempted,
      sent,
      notEnrolled: tally.invalid + tally.conflict + tally.failed,
    });
  };

  // The line of every row handed to enrollMany, by its index: its outcomes, a conflict's earlier row
  // too, carry an index. A packed array of small integers: about 4 bytes a row.
  const lines: number[] = [];
  const run: RunLines = { file, lineOf: (index) => lines[index] ?? 0, resume: values.resume };
  async function* bodies(): AsyncGenerator<EnrollLocationBody> {
    for await (const row of readStores(file as string, io.cwd)) {
      if ('problem' in row) {
        await record(
          {
            line: row.line,
            partner_location_id: row.partner_location_id,
            status: 'invalid',
            code: 'bad_row',
            message: row.problem,
          },
          false,
        );
        continue;
      }
      lines.push(row.line);
      yield row.body;
    }
  }

  const controller = new AbortController();
  const unhook = stopOnSignal(controller, io, 'enrolling');
  let aborted = false;
  try {
    const summary = await enrollMany(client, bodies(), {
      signal: controller.signal,
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(resume ? { resume: readResume(resume, { cwd: io.cwd }) } : {}),
      onOutcome: (outcome) => record(recordOf(outcome, run), wasSent(outcome)),
    });
    aborted = summary.aborted;
  } finally {
    unhook();
    bar.stop(controller.signal.aborted);
    // Written even when the run failed: every row that finished is in them.
    for (const report of reports) await report.writer.close();
    await client.close();
  }

  const notDone = tally.total - tally.created - tally.already_enrolled - tally.skipped;
  const goOn = tally.not_attempted > 0 ? resumeCommand(file, paths, values) : undefined;
  if (json) {
    const { total: rows, confirmed: _, ...counts } = tally;
    io.stdout.write(
      `${JSON.stringify({ rows, counts, aborted, reports: reports.map((r) => r.path), ...(goOn ? { resume_command: goOn.command } : {}) })}\n`,
    );
  } else {
    io.stdout.write(
      describe(
        tally,
        notDone,
        aborted,
        problems,
        reports.map((r) => r.path),
      ),
    );
    if (goOn) {
      const how = goOn.resumes
        ? 'To go on where it stopped'
        : 'To go on (no .jsonl report to resume from: rows already enrolled are sent again and answer already enrolled)';
      io.stdout.write(`${how}:\n  ${goOn.command}\n`);
    }
  }
  return notDone > 0 ? EXIT.someFailed : EXIT.ok;
}

function describe(t: Tally, notDone: number, aborted: boolean, problems: ReportRecord[], reports: string[]): string {
  const out = [
    `${aborted ? 'Stopped. ' : ''}${t.total} rows: ${t.created} enrolled, ${t.already_enrolled} already enrolled, ${t.skipped} skipped (resumed), ` +
      `${t.invalid} invalid, ${t.conflict} conflicts, ${t.failed} failed, ${t.not_attempted} not attempted`,
  ];
  if (t.not_attempted)
    out.push(
      `  ${t.not_attempted} not attempted: the stop came before ` +
        `${t.not_attempted === 1 ? 'this row was' : 'these rows were'} sent (or answered); enrolling them ` +
        `again is safe`,
    );
  if (t.confirmed)
    out.push(
      `  ${t.confirmed} already enrolled ${t.confirmed === 1 ? 'row was' : 'rows were'} confirmed by reading ` +
        `the store: the call failed after the service had acted (confirmed_after in the .jsonl report)`,
    );
  for (const p of problems)
    out.push(
      `  line ${p.line}  ${p.partner_location_id ?? '(no id)'}  ${p.status}${p.code ? ` ${p.code}` : ''}${p.field ? ` ${p.field}` : ''}: ${p.message ?? ''}`,
    );
  if (notDone > problems.length)
    out.push(
      `  … and ${notDone - problems.length} more${reports.length ? '' : ' (write them all with --report failures.csv)'}`,
    );
  if (reports.length) out.push(`Report${reports.length > 1 ? 's' : ''}: ${reports.join(', ')}`);
  return `${out.join('\n')}\n`;
}

export const enroll: Command = { usage, run };
