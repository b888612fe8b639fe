/**
 * Rows that share a `partner_location_id` run in file order, and the first of them decides.
 *
 * What is kept: for every id seen, its first row's index and content hash (what deciding a later
 * row needs; about 200 bytes an id, so some 20 MB for 100,000 ids), and, for the ids with a row in
 * flight or waiting (at most the run's concurrency), the promise the next row of that id waits on.
 */
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

export class SameIdRows {
  private readonly firsts = new Map<string, FirstRow>();
  private readonly tails = new Map<string, Promise<void>>();

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
}
