/** `crp bookings export` and `crp billing export`: a list walked page by page into CSV or JSON lines. */
import type { BillingRow, Reservation, ReservationsQuery } from '../index.js';
import { problemRefusedBeforeSending } from '../core/refusal.js';
import { RESERVATION_STATUSES } from '../schemas/reservations.js';
import {
  COMMON_HELP,
  EXIT,
  UsageError,
  allowedList,
  clientFrom,
  oneOf,
  parse,
  stopOnSignal,
  type Command,
  type Io,
} from './command.js';
import { RAW_CSV_HELP, RAW_CSV_OPTION, csvRecord, type Cell, type CsvRecord } from './csv-out.js';
import { lineWriter } from './line-writer.js';
import { progress } from './progress.js';

/** A list's CSV shape: the header and one row of cells per item. */
export interface Table<T> {
  columns: readonly string[];
  cells(item: T): Cell[];
}

export const BOOKINGS: Table<Reservation> = {
  columns: [
    'reservation_id',
    'partner_location_id',
    'status',
    'visit_at',
    'time_zone',
    'party_size',
    'creator_handle',
    'creator_platforms',
    'creator_follower_count',
    'acknowledged_kind',
    'created_at',
  ],
  cells: (b) => [
    b.reservation_id,
    b.partner_location_id,
    b.status,
    b.visit_at,
    b.time_zone,
    b.party_size,
    b.creator.handle,
    b.creator.platforms.join(' '),
    b.creator.follower_count,
    b.acknowledged_kind,
    b.created_at,
  ],
};

const billingTable = (month: string): Table<BillingRow> => ({
  columns: ['month', 'partner_location_id', 'videos_published', 'completed_visits', 'no_shows'],
  cells: (r) => [month, r.partner_location_id, r.videos_published, r.completed_visits, r.no_shows],
});

const EXPORT_OPTIONS = { format: { type: 'string' }, out: { type: 'string', short: 'o' }, ...RAW_CSV_OPTION } as const;
const EXPORT_HELP = `  --format csv|jsonl    CSV with a header row, or one JSON object per line as the service
                        returns it (default: jsonl for an --out ending in .jsonl, else csv)
  -o, --out FILE        write there instead of stdout
${RAW_CSV_HELP}`;

function formatOf(format: string | undefined, out: string | undefined): 'csv' | 'jsonl' {
  if (format === undefined) return out && /\.(jsonl|ndjson)$/i.test(out) ? 'jsonl' : 'csv';
  return oneOf('--format', format, ['csv', 'jsonl']);
}

interface ExportValues {
  out?: string | undefined;
  json?: boolean | undefined;
  'raw-csv'?: boolean | undefined;
}

/** The flag or argument behind each filter, to name it when the SDK refuses a value. */
type Flags = Record<string, string>;

/**
 * Walk `list` into `out`; resolves to the number of items, or rejects with the list's error.
 * Nothing is written (no CSV header, no --out file) until the first page has come: a value the
 * SDK refuses before sending, or a refused key, leaves stdout and the file untouched.
 */
async function exportList<T>(
  io: Io,
  what: string,
  list: (signal: AbortSignal) => AsyncIterable<T>,
  table: Table<T>,
  format: 'csv' | 'jsonl',
  values: ExportValues,
  flags: Flags,
): Promise<number> {
  const controller = new AbortController();
  const unhook = stopOnSignal(controller, io, `the ${what} export`);
  let count = 0;
  let out: ReturnType<typeof lineWriter> | undefined;
  try {
    const items = list(controller.signal)[Symbol.asyncIterator]();
    let next = await items.next().catch((error: unknown) => {
      throw asUsage(error, flags);
    });
    out = lineWriter(values.out, io.stdout, io.cwd);
    // Plain lines while it runs; the count is told at the end.
    const counter = progress(io.stderr, values.json !== true, { unit: what, total: undefined, plain: true });
    const record: CsvRecord = csvRecord(values['raw-csv']);
    if (format === 'csv') await out.write(record(table.columns));
    for (; !next.done; next = await items.next()) {
      await out.write(format === 'csv' ? record(table.cells(next.value)) : `${JSON.stringify(next.value)}\n`);
      count += 1;
      counter.update({ done: count, sent: count, notEnrolled: 0 });
    }
  } finally {
    unhook();
    await out?.close();
  }
  if (values.json) io.stderr.write(`${JSON.stringify({ [what]: count, format, out: values.out ?? 'stdout' })}\n`);
  else if (values.out) io.stderr.write(`crp: ${count} ${what} written to ${values.out}\n`);
  return EXIT.ok;
}

/** A value the SDK refused before sending is a command-line mistake: name the flag it came from. */
function asUsage(error: unknown, flags: Flags): unknown {
  const refused = problemRefusedBeforeSending(error);
  if (refused?.field === undefined) return error;
  const { problem, field } = refused;
  const flag = flags[field.split('.')[0] as string];
  if (flag === undefined) return error;
  const said = `${problem}.`;
  return new UsageError(said.startsWith(`${field} `) ? `${flag}${said.slice(field.length)}` : `${flag}: ${said}`, {
    cause: error,
  });
}

function onlyVerb(positionals: string[], noun: string, extra = 0): string[] {
  const [verb, ...rest] = positionals;
  if (verb !== 'export') throw new UsageError(`crp ${noun} takes one command: export${verb ? ` (got ${verb})` : ''}.`);
  if (rest.length > extra) throw new UsageError(`unexpected argument ${rest[extra]}`);
  return rest;
}

const BOOKING_FLAGS: Flags = {
  status: '--status',
  from: '--from',
  to: '--to',
  acknowledged: '--acknowledged',
  partner_location_id: '--location',
};

export const bookings: Command = {
  usage: `Usage: crp bookings export [--status S[,S…]] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                           [--acknowledged true|false] [--location ID] [--format csv|jsonl] [--out FILE]
                           [--raw-csv]

Every booking that matches, one line each, walked page by page (memory stays flat).

  --status S[,S…]       ${allowedList(RESERVATION_STATUSES)}
  --from, --to DATE     the visit's local date, inclusive
  --acknowledged BOOL   only bookings (not) yet acknowledged
  --location ID         one store's bookings
${EXPORT_HELP}

${COMMON_HELP}

Example:
  crp bookings export --status confirmed,completed --from 2026-12-01 --to 2026-12-31 --out december.csv`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      ...EXPORT_OPTIONS,
      status: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      acknowledged: { type: 'string' },
      location: { type: 'string' },
    });
    onlyVerb(positionals, 'bookings');
    const format = formatOf(values.format, values.out);
    const query: Record<string, unknown> = { limit: 200 };
    if (values.status !== undefined)
      query.status = values.status.split(',').map((s) => oneOf('--status', s.trim(), RESERVATION_STATUSES));
    if (values.from !== undefined) query.from = values.from;
    if (values.to !== undefined) query.to = values.to;
    if (values.location !== undefined) query.partner_location_id = values.location;
    if (values.acknowledged !== undefined) {
      query.acknowledged = oneOf('--acknowledged', values.acknowledged, ['true', 'false']) === 'true';
    }
    const client = clientFrom(values, io);
    try {
      // The SDK checks the filters before the first request, naming the one at fault.
      return await exportList(
        io,
        'bookings',
        (signal) => client.reservations.list(query as ReservationsQuery, { signal }),
        BOOKINGS,
        format,
        values,
        BOOKING_FLAGS,
      );
    } finally {
      await client.close();
    }
  },
};

export const billing: Command = {
  usage: `Usage: crp billing export YYYY-MM [--format csv|jsonl] [--out FILE] [--raw-csv]

Every store's billable counts for the month: videos published, completed visits, no-shows.

${EXPORT_HELP}

${COMMON_HELP}

Example:
  crp billing export 2026-12 --out billing-2026-12.csv`,
  async run(args, io) {
    const { values, positionals } = parse(args, EXPORT_OPTIONS);
    const [month] = onlyVerb(positionals, 'billing', 1);
    if (!month) throw new UsageError('crp billing export needs the month, as YYYY-MM.');
    const format = formatOf(values.format, values.out);
    const client = clientFrom(values, io);
    try {
      return await exportList(
        io,
        'stores',
        (signal) => client.reports.billingMonthly(month, { limit: 200 }, { signal }),
        billingTable(month),
        format,
        values,
        { month: 'the month argument' },
      );
    } finally {
      await client.close();
    }
  },
};
