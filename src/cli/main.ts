/**
 * crp: the Partner API for operators, from a shell. `crp --help` lists the commands; each has
 * its own `--help` with an example. Exit codes: 0 done, 2 some rows failed, 1 could not run.
 * Importing this file runs nothing: crp.ts is the bin that calls `main` with the process's Io.
 */
import { createRequire } from 'node:module';
import { COMMON_HELP, EXIT, UsageError, closest, reportFailure, type Command, type Io } from './command.js';
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
  crp --version                                                    the version of @crp/partner-sdk

The key and the service address come from PARTNER_API_KEY and PARTNER_API_BASE_URL (or the
flags below); the key is never printed. \`crp COMMAND --help\` tells more, with an example.

${COMMON_HELP}

Run it as npx -p @crp/partner-sdk crp …, or node_modules/.bin/crp … where the SDK is installed
(npx without -p would fetch whatever other package has that name).

Example:
  npx -p @crp/partner-sdk crp-sandbox --port 4010 &   # prints the two variables to export
  crp enroll stores.csv --report failures.csv`;

/** Runs `crp ARGV…` with `io`; resolves to the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return name === undefined ? EXIT.couldNotRun : EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`crp ${version()}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const near = closest(name, Object.keys(COMMANDS));
    return reportFailure(
      new UsageError(`unknown command ${JSON.stringify(name)}${near ? `; did you mean ${near}?` : ''}`),
      io,
      args.includes('--json'),
      'crp --help',
    );
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // The reader of stdout went away (\`crp bookings export | head\`): what it wanted was written.
    if ((error as { code?: unknown } | null)?.code === 'EPIPE') return EXIT.ok;
    return reportFailure(error, io, args.includes('--json'), `crp ${name} --help`);
  }
}

/** The package's version: its package.json is two folders up, from src/cli and from dist/cli alike. */
function version(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}
