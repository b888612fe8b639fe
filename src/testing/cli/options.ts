/** The crp-sandbox command's options: one table drives parsing, validation and --help. */
import { parseArgs } from 'node:util';
import { DIALECT_NAMES, type DialectName } from '../access/dialects.js';
import { HOST_ENTRY } from '../options.js';

export interface CliOptions {
  help: boolean;
  port: number;
  host: string;
  seed: number | undefined;
  adminToken: string | undefined;
  allowHosts: string[];
  pace: number;
  advanceEveryMs: number;
  advanceMinutes: number;
  stores: number;
  visitsPerWeek: number | undefined;
  dialect: DialectName;
  start: string | undefined;
  quiet: boolean;
}

/** A bad command line: the message, then the usage, then exit code 2. */
export class UsageError extends Error {}

interface Option {
  name: string;
  value?: string;
  help: string;
  example: string;
}

const OPTIONS: Option[] = [
  { name: 'port', value: 'N', help: 'Port to serve on; 0 picks a free one. Default 4010.', example: '--port 0' },
  {
    name: 'host',
    value: 'ADDR',
    help: 'Address to bind. Default 127.0.0.1 (this machine only). Any other address needs --admin-token.',
    example: '--host 0.0.0.0 --admin-token "$(openssl rand -hex 16)"',
  },
  {
    name: 'admin-token',
    value: 'TOKEN',
    help: 'Secret every control call (/_sandbox/…) must send as X-Sandbox-Admin-Token. At least 16 characters. Also read from CRP_SANDBOX_ADMIN_TOKEN.',
    example: '--admin-token 6f1c0e2b9a7d4c3e8f50a1b2',
  },
  {
    name: 'allow-host',
    value: 'NAMES',
    help:
      'Other Host names to answer to, comma-separated: NAME (any port) or NAME:PORT. By default only ' +
      'localhost, 127.0.0.1, [::1] and the bound address with its port; any other Host gets 403, so a web ' +
      'page cannot reach the sandbox under its own name (DNS rebinding). Also read from ' +
      'CRP_SANDBOX_ALLOW_HOSTS.',
    example: '--host 0.0.0.0 --admin-token "$TOKEN" --allow-host sandbox,sandbox:8080',
  },
  {
    name: 'seed',
    value: 'N',
    help: 'Seed of every random draw; the same seed and calls give the same data and the same key. Without it the key is random (data still follows seed 1).',
    example: '--seed 42',
  },
  {
    name: 'pace',
    value: 'X',
    help: 'Let simulated time flow X times faster than real time (3600 = an hour per second). Default 0: time stands still until advanced.',
    example: '--pace 3600',
  },
  {
    name: 'stores',
    value: 'N',
    help: 'Enroll N demo stores for the printed key, with a few weeks of bookings and videos. Default 0.',
    example: '--stores 5',
  },
  {
    name: 'visits-per-week',
    value: 'N',
    help: 'New bookings per week for each active store. Default 3.',
    example: '--visits-per-week 20',
  },
  {
    name: 'dialect',
    value: 'NAME',
    help: `How rate limits and errors are spoken: ${DIALECT_NAMES.join(', ')}. Default contract.`,
    example: '--dialect draft10',
  },
  {
    name: 'start',
    value: 'ISO',
    help: 'Start of simulated time. Default 2026-12-01T09:00:00Z.',
    example: '--start 2027-01-04T08:00:00Z',
  },
  {
    name: 'advance-every-ms',
    value: 'N',
    help: 'Older form of --pace: every N real milliseconds, move time on by --advance-minutes.',
    example: '--advance-every-ms 1000',
  },
  {
    name: 'advance-minutes',
    value: 'M',
    help: 'Simulated minutes per --advance-every-ms step. Default 60.',
    example: '--advance-every-ms 500 --advance-minutes 30',
  },
  { name: 'quiet', help: 'Do not print a line as bookings and videos happen.', example: '--quiet' },
  { name: 'help', help: 'Print this help and exit.', example: '--help' },
];

export const USAGE = `Usage: crp-sandbox [options]    (crp-sandbox --help lists them)`;

export function helpText(): string {
  const width = Math.max(...OPTIONS.map((o) => `--${o.name}${o.value ? ` ${o.value}` : ''}`.length));
  const lines = OPTIONS.map((o) => {
    const flag = `--${o.name}${o.value ? ` ${o.value}` : ''}`.padEnd(width);
    return `  ${flag}  ${o.help}\n  ${' '.repeat(width)}  e.g. crp-sandbox ${o.example}`;
  });
  return [
    'crp-sandbox: the Partner API sandbox on a real port, with its control API under /_sandbox/.',
    '',
    'Usage: crp-sandbox [options]',
    '',
    'Options:',
    ...lines,
    '',
    'Examples:',
    '  crp-sandbox --port 4010 --seed 42 --pace 3600 --stores 5     bookings keep happening, an hour a second',
    '  crp-sandbox --port 0 --dialect burst                          test a client against a burst limit',
    '',
    'It prints PARTNER_API_BASE_URL and PARTNER_API_KEY, then serves until Ctrl-C. Drive it from any language:',
    "  curl -X POST $PARTNER_API_BASE_URL/_sandbox/clock/advance -H 'content-type: application/json' -d '{\"by_ms\": 86400000}'   (a day passes)",
    '  curl $PARTNER_API_BASE_URL/openapi.json                                              (the OpenAPI document of every endpoint)',
    'See docs/sandbox.md (the control API) and docs/http.md (the API from any language), in the package:',
    'node_modules/@crp/partner-sdk/docs/.',
  ].join('\n');
}

function wholeNumber(name: string, text: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(text)}`);
  return Number(text);
}

function positive(name: string, text: string | undefined): number {
  if (text === undefined) return 0;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new UsageError(`--${name} must be a number of 0 or more, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * Two flags that each say how simulated time moves: one would be silently ignored, so both given
 * is refused, naming the values. Defaults never clash: only flags the caller wrote are compared.
 */
function refuseClash(text: (name: string) => string | undefined): void {
  const pace = text('pace');
  const every = text('advance-every-ms');
  const minutes = text('advance-minutes');
  if (pace !== undefined && every !== undefined) {
    throw new UsageError(
      `--pace ${pace} and --advance-every-ms ${every} were both given, and each sets how simulated time moves: give one (--pace is the newer form)`,
    );
  }
  if (minutes !== undefined && every === undefined) {
    throw new UsageError(
      `--advance-minutes ${minutes} was given without --advance-every-ms, so it would do nothing: add --advance-every-ms N, or use --pace`,
    );
  }
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: Object.fromEntries(
        OPTIONS.map((o) => [
          o.name,
          o.value
            ? { type: 'string' as const }
            : { type: 'boolean' as const, ...(o.name === 'help' ? { short: 'h' } : {}) },
        ]),
      ),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const text = (name: string) => values[name] as string | undefined;
  const dialect = text('dialect') ?? 'contract';
  if (!(DIALECT_NAMES as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be one of ${DIALECT_NAMES.join(', ')}, got ${JSON.stringify(dialect)}`);
  const adminToken = text('admin-token') ?? env.CRP_SANDBOX_ADMIN_TOKEN;
  if (adminToken !== undefined && adminToken.length < 16)
    throw new UsageError('--admin-token must be at least 16 characters (it guards the control API)');
  const host = text('host') ?? '127.0.0.1';
  const allowHosts = (text('allow-host') ?? env.CRP_SANDBOX_ALLOW_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const badHost = allowHosts.find((h) => !HOST_ENTRY.test(h));
  if (badHost !== undefined)
    throw new UsageError(
      `--allow-host takes host names or addresses with an optional :port, comma-separated, e.g. sandbox,sandbox:8080; got ${JSON.stringify(badHost)}`,
    );
  if (host.trim() === '') throw new UsageError('--host must be an address, e.g. 127.0.0.1 or 0.0.0.0');
  const start = text('start');
  if (start !== undefined && Number.isNaN(Date.parse(start)))
    throw new UsageError(`--start must be an ISO 8601 instant, got ${JSON.stringify(start)}`);
  const seedText = text('seed');
  refuseClash(text);
  return {
    help: values.help === true,
    port: wholeNumber('port', text('port'), 4010, 65_535),
    host,
    seed: seedText === undefined ? undefined : wholeNumber('seed', seedText, 1, 2 ** 32 - 1),
    adminToken,
    allowHosts,
    pace: positive('pace', text('pace')),
    advanceEveryMs: positive('advance-every-ms', text('advance-every-ms')),
    advanceMinutes: text('advance-minutes') === undefined ? 60 : positive('advance-minutes', text('advance-minutes')),
    stores: wholeNumber('stores', text('stores'), 0, 100_000),
    visitsPerWeek:
      text('visits-per-week') === undefined ? undefined : positive('visits-per-week', text('visits-per-week')),
    dialect: dialect as DialectName,
    start,
    quiet: values.quiet === true,
  };
}

/** Every option the command takes, for tests that check --help covers them all. */
export const OPTION_NAMES = OPTIONS.map((o) => o.name);
