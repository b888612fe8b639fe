#!/usr/bin/env node
/**
 * crp: the Partner API for operators, from a shell. `crp --help` lists the commands; each has
 * its own `--help` with an example. Exit codes: 0 done, 2 some rows failed, 1 could not run.
 */
import { COMMON_HELP, EXIT, UsageError, reportFailure, type Command, type Io } from './command.js';
import { enroll } from './enroll.js';
import { events } from './events.js';
import { billing, bookings } from './exports.js';
import { query } from './query.js';
import { summary } from './summary.js';
import { sync } from './sync.js';

const COMMANDS: Record<string, Command> = { enroll, bookings, billing, events, summary, sync, query };

const USAGE = `Usage: crp COMMAND [options]

  crp enroll STORES.csv [--report FILE] [--resume REPORT.jsonl]   enroll every store of a CSV file
  crp bookings export [--status …] [--from …] [--to …] [--format csv|jsonl] [--out FILE]
  crp billing export YYYY-MM [--format csv|jsonl] [--out FILE]
  crp events tail [--checkpoint FILE]                              bookings and videos as JSON lines
  crp summary                                                      the account at a glance
  crp sync [--database URL] [--once] [--standby]                   mirror into Postgres tables
  crp query "SQL" [--database URL] [--csv]                         read the mirror

The key and the service address come from PARTNER_API_KEY and PARTNER_API_BASE_URL (or the
flags below); the key is never printed. \`crp COMMAND --help\` tells more, with an example.

${COMMON_HELP}

Example:
  npx crp-sandbox --port 4010 &      # prints PARTNER_API_BASE_URL and PARTNER_API_KEY to export
  crp enroll stores.csv --report failures.csv`;

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return name === undefined ? EXIT.couldNotRun : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) return reportFailure(new UsageError(`unknown command ${JSON.stringify(name)}`), io, args.includes('--json'), USAGE);
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // The reader of stdout went away (\`crp bookings export | head\`): what it wanted was written.
    if ((error as { code?: unknown } | null)?.code === 'EPIPE') return EXIT.ok;
    return reportFailure(error, io, args.includes('--json'), command.usage);
  }
}

// Set the exit code and let the process end by itself, so that stdout and the reports are flushed.
main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`crp: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT.couldNotRun;
  },
);
