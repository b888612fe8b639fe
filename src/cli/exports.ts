/** `crp bookings export` and `crp billing export`: a list walked page by page into CSV or JSON lines. */
import { stringify } from 'csv-stringify/sync';
import type { BillingRow, Reservation, ReservationsQuery } from '../index.js';
import { COMMON_HELP, EXIT, UsageError, clientFrom, parse, stopOnSignal, type Command, type Io } from './command.js';
import { lineWriter } from './line-writer.js';
import { progress } from './progress.js';

type Cell = string | number | boolean | null | undefined;

/** A list's CSV shape: the header and one row of cells per item. */
interface Table<T> {
  columns: readonly string[];
  cells(item: T): Cell[];
}

const BOOKINGS: Table<Reservation> = {
  columns: ['reservation_id', 'partner_location_id', 'status', 'visit_at', 'time_zone', 'party_size', 'creator_handle', 'creator_platforms', 'creator_follower_count', 'acknowledged_kind', 'created_at'],
  cells: (b) => [b.reservation_id, b.partner_location_id, b.status, b.visit_at, b.time_zone, b.party_size, b.creator.handle, b.creator.platforms.join(' '), b.creator.follower_count, b.acknowledged_kind, b.created_at],
};

const billingTable = (month: string): Table<BillingRow> => ({
  columns: ['month', 'partner_location_id', 'videos_published', 'completed_visits', 'no_shows'],
  cells: (r) => [month, r.partner_location_id, r.videos_published, r.completed_visits, r.no_shows],
});

const EXPORT_OPTIONS = { format: { type: 'string' }, out: { type: 'string', short: 'o' } } as const;
const EXPORT_HELP = `  --format csv|jsonl    CSV with a header row, or one JSON object per line as the service
                        returns it (default: jsonl for an --out ending in .jsonl, else csv)
  -o, --out FILE        write there instead of stdout`;

function formatOf(format: string | undefined, out: string | undefined): 'csv' | 'jsonl' {
  if (format === undefined) return out && /\.(jsonl|ndjson)$/i.test(out) ? 'jsonl' : 'csv';
  if (format === 'csv' || format === 'jsonl') return format;
  throw new UsageError(`--format must be csv or jsonl; got ${JSON.stringify(format)}`);
}

/** Walk `list` into `out`; resolves to the number of items, or rejects with the list's error. */
async function exportList<T>(io: Io, what: string, list: (signal: AbortSignal) => AsyncIterable<T>, table: Table<T>, values: { format?: string | undefined; out?: string | undefined; json?: boolean | undefined }): Promise<number> {
  const format = formatOf(values.format, values.out);
  const out = lineWriter(values.out, io.stdout);
  // Plain lines while it runs; the count is told at the end.
  const counter = progress(io.stderr, values.json !== true, { unit: what, total: undefined, plain: true });
  const controller = new AbortController();
  const unhook = stopOnSignal(controller, io, `the ${what} export`);
  let count = 0;
  try {
    if (format === 'csv') await out.write(stringify([[...table.columns]]));
    for await (const item of list(controller.signal)) {
      await out.write(format === 'csv' ? stringify([table.cells(item)]) : `${JSON.stringify(item)}\n`);
      counter.update(++count, 0);
    }
  } finally {
    unhook();
    await out.close();
  }
  if (values.json) io.stderr.write(`${JSON.stringify({ [what]: count, format, out: values.out ?? 'stdout' })}\n`);
  else if (values.out) io.stderr.write(`crp: ${count} ${what} written to ${values.out}\n`);
  return EXIT.ok;
}

function onlyVerb(positionals: string[], noun: string, extra = 0): string[] {
  const [verb, ...rest] = positionals;
  if (verb !== 'export') throw new UsageError(`crp ${noun} takes one command: export${verb ? ` (got ${verb})` : ''}.`);
  if (rest.length > extra) throw new UsageError(`unexpected argument ${rest[extra]}`);
  return rest;
}

export const bookings: Command = {
  usage: `Usage: crp bookings export [--status S[,S…]] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                           [--acknowledged true|false] [--location ID] [--format csv|jsonl] [--out FILE]

Every booking that matches, one line each, walked page by page (memory stays flat).

  --status S[,S…]       pending, confirmed, completed, no_show, cancelled, rejected
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
    const query: Record<string, unknown> = { limit: 200 };
    if (values.status !== undefined) query.status = values.status.split(',').map((s) => s.trim());
    if (values.from !== undefined) query.from = values.from;
    if (values.to !== undefined) query.to = values.to;
    if (values.location !== undefined) query.partner_location_id = values.location;
    if (values.acknowledged !== undefined) {
      if (values.acknowledged !== 'true' && values.acknowledged !== 'false') throw new UsageError('--acknowledged must be true or false');
      query.acknowledged = values.acknowledged === 'true';
    }
    const client = clientFrom(values, io);
    try {
      // The SDK checks the filters before the first request, naming the one at fault.
      return await exportList(io, 'bookings', (signal) => client.reservations.list(query as ReservationsQuery, { signal }), BOOKINGS, values);
    } finally {
      await client.close();
    }
  },
};

export const billing: Command = {
  usage: `Usage: crp billing export YYYY-MM [--format csv|jsonl] [--out FILE]

Every store's billable counts for the month: videos published, completed visits, no-shows.

${EXPORT_HELP}

${COMMON_HELP}

Example:
  crp billing export 2026-12 --out billing-2026-12.csv`,
  async run(args, io) {
    const { values, positionals } = parse(args, EXPORT_OPTIONS);
    const [month] = onlyVerb(positionals, 'billing', 1);
    if (!month) throw new UsageError('crp billing export needs the month, as YYYY-MM.');
    const client = clientFrom(values, io);
    try {
      return await exportList(io, 'stores', (signal) => client.reports.billingMonthly(month, { limit: 200 }, { signal }), billingTable(month), values);
    } finally {
      await client.close();
    }
  },
};
