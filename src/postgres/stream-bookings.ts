/**
 * The stream's bookings in the mirror's schema (`stream_bookings`), one row each: the booking
 * family's part of the stream's state (`BookingTable`), read a page at a time when the stream
 * needs it instead of held in the process. What the stream takes for a commit is held here and
 * written by the checkpoint in the transaction that commits the records and rows of the same
 * changes (checkpoint.ts), so the table and the stream's position never disagree.
 */
import type { BookingEntry, BookingTable, Counts, IdLookup } from '../events/bookings.js';
import type { Queryable } from './database.js';
import { databaseError } from './errors.js';

/** Rows a query of `stores()` reads: about 0.5 MB of them in the process at once. */
const STORES_CHUNK = 5_000;

type Held = { store: number; status: string; ack: string | null; visit: number | null; packed: string };

export class StreamBookings implements BookingTable {
  readonly #db: Queryable;
  readonly #table: string;
  readonly #database: string;
  /** Taken for the next commit, the latest per booking. */
  #held = new Map<string, Held>();
  /** Every row goes with the next commit, before what is held. */
  #clear = false;

  constructor(db: Queryable, schemaQuoted: string, database: string) {
    this.#db = db;
    this.#table = `${schemaQuoted}.stream_bookings`;
    this.#database = database;
  }

  /** What the next commit writes. */
  get pending(): number {
    return this.#held.size + (this.#clear ? 1 : 0);
  }

  /** The next commit clears every row: the stream forgot everything (the service's history went back). */
  get clearing(): boolean {
    return this.#clear;
  }

  async counts(): Promise<{ size: number; counts: Counts }> {
    const rows = await this.#query<{ status: string; n: number; unacknowledged: number }>(
      `select status, count(*)::int as n, (count(*) filter (where ack is null))::int as unacknowledged
       from ${this.#table} group by status`,
    );
    const counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
    let size = 0;
    for (const row of rows) {
      size += row.n;
      counts.unacknowledged += row.unacknowledged;
      if (Object.hasOwn(counts, row.status) && row.status !== 'unacknowledged')
        counts[row.status as keyof Counts] = row.n;
    }
    return { size, counts };
  }

  async read(ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const rest = ids.filter((id) => {
      const held = this.#held.get(id);
      if (held) found.set(id, held.packed);
      return !held;
    });
    if (rest.length === 0 || this.#clear) return found;
    const rows = await this.#query<{ reservation_id: string; packed: string }>(
      `select reservation_id, packed from ${this.#table} where reservation_id = any($1::text[])`,
      [rest],
    );
    for (const row of rows) found.set(row.reservation_id, row.packed);
    return found;
  }

  async stores(
    status: 'pending' | 'confirmed',
    options: { visitBy?: number | undefined; except: IdLookup },
  ): Promise<number[]> {
    const { except } = options;
    const visitBy = options.visitBy === undefined ? null : Math.floor(options.visitBy);
    const found = new Set<number>();
    // What is held is newer than its row: left out here, counted below. The rows come a chunk at a
    // time in key order and are checked against `except` here: it may hold every pending booking of
    // a fleet, which sent as a parameter would be megabytes of text each way.
    for (let after = '', more = !this.#clear; more; ) {
      const rows = await this.#query<{ reservation_id: string; store: number }>(
        `select reservation_id, store from ${this.#table}
         where status = $1 and ($2::bigint is null or visit <= $2) and reservation_id > $3
         order by reservation_id limit ${STORES_CHUNK}`,
        [status, visitBy, after],
      );
      for (const row of rows)
        if (!except.has(row.reservation_id) && !this.#held.has(row.reservation_id)) found.add(row.store);
      more = rows.length === STORES_CHUNK;
      after = rows.at(-1)?.reservation_id ?? after;
    }
    for (const [id, held] of this.#held) {
      if (held.status !== status || except.has(id)) continue;
      if (visitBy !== null && (held.visit === null || held.visit > visitBy)) continue;
      found.add(held.store);
    }
    return [...found];
  }

  hold(id: string, packed: string, entry: BookingEntry): void {
    this.#held.set(id, { store: entry.store, status: entry.status, ack: entry.ack, visit: entry.visit, packed });
  }

  clear(): void {
    this.#held.clear();
    this.#clear = true;
  }

  /** Write what is held, inside the checkpoint's open transaction (`tx`); what was held is then taken. */
  async write(tx: Queryable): Promise<void> {
    const held = this.#held;
    const clear = this.#clear;
    this.#held = new Map();
    this.#clear = false;
    if (clear) await tx.query(`delete from ${this.#table}`);
    if (held.size === 0) return;
    const rows = [...held];
    await tx.query(
      `insert into ${this.#table} (reservation_id, store, status, ack, visit, packed)
       select * from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::text[])
       on conflict (reservation_id) do update set store = excluded.store, status = excluded.status,
         ack = excluded.ack, visit = excluded.visit, packed = excluded.packed`,
      [
        rows.map(([id]) => id),
        rows.map(([, r]) => r.store),
        rows.map(([, r]) => r.status),
        rows.map(([, r]) => r.ack),
        rows.map(([, r]) => r.visit),
        rows.map(([, r]) => r.packed),
      ],
    );
  }

  async #query<Row>(text: string, params?: unknown[]): Promise<Row[]> {
    try {
      return (await this.#db.query<Row>(text, params)).rows;
    } catch (error) {
      throw databaseError(error, this.#database, 'reading the stream checkpoint');
    }
  }
}
