/**
 * Rows that share a `partner_location_id` run in file order, and the first of them decides.
 *
 * What is kept: for every id seen, its first row's index and content hash (what deciding a later
 * row needs; about 200 bytes an id, so some 20 MB for 100,000 ids), and, for the ids with a row in
 * flight or waiting (at most the run's concurrency), the promise the next row of that id waits on.
 * The stores that rows of this run enrolled are kept for the last {@link ENROLLED_KEPT} ids only: a
 * later identical row of one of them takes that answer without a call (a file that repeats one
 * store 100,000 times costs one call, not 100,000); past that, a later identical row is sent, and
 * the service answers that it is already enrolled.
 */
import type { Location } from '../index.js';

export interface FirstRow {
  index: number;
  contentHash: string;
}

/** A row's turn: `ready` settles when every earlier row of its id has ended; `end` lets the next one go. */
export interface Turn {
  ready: Promise<void>;
  end(): void;
}

const NO_WAIT: Turn = { ready: Promise.resolve(), end: () => undefined };

/** A row of this run that enrolled its id (or found it enrolled): its index and the store. */
export interface EnrolledRow {
  index: number;
  location: Location;
}

/** How many ids' stores {@link SameIdRows} keeps for later identical rows (the most recent ones). */
export const ENROLLED_KEPT = 1024;

export class SameIdRows {
  private readonly firsts = new Map<string, FirstRow>();
  private readonly tails = new Map<string, Promise<void>>();
  /** Most recently enrolled last (a Map keeps insertion order). */
  private readonly enrolled = new Map<string, EnrolledRow>();

  /** @param kept how many ids' stores to keep for later identical rows. */
  constructor(private readonly kept = ENROLLED_KEPT) {}

  /** Take the row's place behind the earlier rows of `id`; call in file order, before any await. */
  turn(id: string | undefined): Turn {
    if (id === undefined) return NO_WAIT;
    const before = this.tails.get(id);
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    this.tails.set(id, mine);
    return {
      ready: before ?? Promise.resolve(),
      end: () => {
        end();
        // The last row of the id in flight: nothing waits on it any more.
        if (this.tails.get(id) === mine) this.tails.delete(id);
      },
    };
  }

  /** The first row of `id`: this one, when it is the first seen. */
  firstOf(id: string, row: FirstRow): FirstRow {
    const first = this.firsts.get(id);
    if (first) return first;
    this.firsts.set(id, row);
    return row;
  }

  /** A row of `id` with the first row's content enrolled it: later identical rows may take its answer. */
  enrolledBy(id: string, row: EnrolledRow): void {
    if (this.enrolled.has(id)) return;
    this.enrolled.set(id, row);
    if (this.enrolled.size > this.kept) this.enrolled.delete(this.enrolled.keys().next().value as string);
  }

  /** The earlier row of this run that enrolled `id` with the first row's content, if it is still kept. */
  enrolledRow(id: string): EnrolledRow | undefined {
    return this.enrolled.get(id);
  }
}
