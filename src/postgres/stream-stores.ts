/**
 * The stream's stores in the mirror's schema (`stream_stores`), one row each: the store's number
 * and id, its record as last read (`location`) and its video counts (`videos`, with the month they
 * were counted in). The stream reads them once when it starts, a page at a time, instead of a
 * snapshot listing every store rebuilt at each compaction; what it takes for a commit is held here
 * and written by the checkpoint in the transaction that commits the same changes (checkpoint.ts).
 */
import type { StoreRow, StoreTable } from '../events/store-table.js';
import type { Queryable } from './database.js';
import { databaseError } from './errors.js';

/** Rows a page of `rows()` holds: about 1 MB of them in the process at once. */
const PAGE_ROWS = 10_000;
/** The families' columns (`Family.column`) this table has. */
const VALUE_COLUMNS = ['location', 'videos'] as const;

type Row = { store: number; id: string; location: string | null; videos: string | null; month: string };

export class StreamStores implements StoreTable {
  readonly #db: Queryable;
  readonly #table: string;
  readonly #database: string;
  /** Taken for the next commit, the latest per store. */
  #held = new Map<number, StoreRow>();
  /** Every row goes with the next commit, before what is held. */
  #clear = false;

  constructor(db: Queryable, schemaQuoted: string, database: string) {
    this.#db = db;
    this.#table = `${schemaQuoted}.stream_stores`;
    this.#database = database;
  }

  /** What the next commit writes. */
  get pending(): number {
    return this.#held.size + (this.#clear ? 1 : 0);
  }

  async *rows(): AsyncIterable<readonly StoreRow[]> {
    let after = -1;
    for (;;) {
      let rows: Row[];
      try {
        rows = (
          await this.#db.query<Row>(
            `select store, id, location, videos, month from ${this.#table} where store > $1 order by store limit ${PAGE_ROWS}`,
            [after],
          )
        ).rows;
      } catch (error) {
        throw databaseError(error, this.#database, 'reading the stream checkpoint');
      }
      if (rows.length === 0) return;
      after = rows[rows.length - 1]?.store as number;
      yield rows.map(({ store, id, location, videos, month }) => ({
        store,
        id,
        values: { location, videos },
        month,
      }));
      if (rows.length < PAGE_ROWS) return;
    }
  }

  hold(row: StoreRow): void {
    const unknown = Object.keys(row.values).filter((column) => !(VALUE_COLUMNS as readonly string[]).includes(column));
    if (unknown.length > 0) throw new Error(`The stream's store table has no column ${unknown.join(', ')}.`);
    this.#held.set(row.store, row);
  }

  clear(): void {
    this.#held.clear();
    this.#clear = true;
  }

  /** Write what is held, inside the checkpoint's open transaction (`tx`); what was held is then taken. */
  async write(tx: Queryable): Promise<void> {
    const held = [...this.#held.values()];
    const clear = this.#clear;
    this.#held = new Map();
    this.#clear = false;
    if (clear) await tx.query(`delete from ${this.#table}`);
    if (held.length === 0) return;
    await tx.query(
      `insert into ${this.#table} (store, id, location, videos, month)
       select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
       on conflict (store) do update set id = excluded.id, location = excluded.location,
         videos = excluded.videos, month = excluded.month`,
      [
        held.map((row) => row.store),
        held.map((row) => row.id),
        held.map((row) => row.values.location ?? null),
        held.map((row) => row.values.videos ?? null),
        held.map((row) => row.month),
      ],
    );
  }
}
