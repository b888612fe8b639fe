/**
 * The ids of the videos the stream delivered, per store, in the mirror's schema (`stream_videos`):
 * the video family's part of the stream's state that grows with the account (`VideoTable`), read a
 * store at a time when its content is read. What the stream takes for a commit is held here and
 * written by the checkpoint in the transaction that commits the same changes (checkpoint.ts).
 */
import type { VideoTable } from '../events/videos.js';
import type { Queryable } from './database.js';
import { databaseError } from './errors.js';

export class StreamVideos implements VideoTable {
  readonly #db: Queryable;
  readonly #table: string;
  readonly #database: string;
  /** Taken for the next commit, per store. */
  #held = new Map<number, Set<string>>();
  #heldIds = 0;
  /** Every row goes with the next commit, before what is held. */
  #clear = false;

  constructor(db: Queryable, schemaQuoted: string, database: string) {
    this.#db = db;
    this.#table = `${schemaQuoted}.stream_videos`;
    this.#database = database;
  }

  /** What the next commit writes. */
  get pending(): number {
    return this.#heldIds + (this.#clear ? 1 : 0);
  }

  async read(store: number): Promise<string[]> {
    const held = [...(this.#held.get(store) ?? [])];
    if (this.#clear) return held;
    let rows: { video_id: string }[];
    try {
      rows = (
        await this.#db.query<{ video_id: string }>(`select video_id from ${this.#table} where store = $1`, [store])
      ).rows;
    } catch (error) {
      throw databaseError(error, this.#database, 'reading the stream checkpoint');
    }
    return [...new Set([...rows.map((row) => row.video_id), ...held])];
  }

  hold(store: number, ids: readonly string[]): void {
    const held = this.#held.get(store) ?? new Set<string>();
    for (const id of ids) {
      if (held.has(id)) continue;
      held.add(id);
      this.#heldIds++;
    }
    this.#held.set(store, held);
  }

  clear(): void {
    this.#held.clear();
    this.#heldIds = 0;
    this.#clear = true;
  }

  /** Write what is held, inside the checkpoint's open transaction (`tx`); what was held is then taken. */
  async write(tx: Queryable): Promise<void> {
    const held = this.#held;
    const clear = this.#clear;
    this.#held = new Map();
    this.#heldIds = 0;
    this.#clear = false;
    if (clear) await tx.query(`delete from ${this.#table}`);
    if (held.size === 0) return;
    const rows = [...held].flatMap(([store, ids]) => [...ids].map((id) => [store, id] as const));
    await tx.query(
      `insert into ${this.#table} (store, video_id) select * from unnest($1::int[], $2::text[]) on conflict do nothing`,
      [rows.map(([store]) => store), rows.map(([, id]) => id)],
    );
  }
}
