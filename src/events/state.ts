/**
 * What a watcher remembers between runs, and how it is written to a checkpoint.
 *
 * Every booking seen (its store, status, acknowledged_kind and, while confirmed, the visit time),
 * each store's video count, the end of the account's booking list (a cursor and how many items of
 * its last page were seen) and when the last full reconciliation started. Bookings are packed
 * into one short string each (~20 bytes plus the id), stores are numbered.
 *
 * On the checkpoint: a snapshot (a JSON object) followed by journal lines, each a JSON array of
 * records. A record holds the new value of one thing (`['b', id, packed]`), so replaying the journal
 * over the snapshot gives the state as of the last confirmed event.
 */
import { CheckpointInvalidError, type Reservation } from '../index.js';
import type { Checkpoint } from './checkpoint.js';

export type StateRecord =
  | ['s', string]
  | ['b', string, string]
  | ['v', number, string]
  | ['t', string | null, number]
  | ['f', number]
  | ['m', string];

export interface BookingEntry {
  store: number;
  status: string;
  ack: string | null;
  /** Visit time in epoch minutes, kept while the booking is confirmed (to find visits that are due). */
  visit: number | null;
}

export interface VideoEntry {
  /** Videos of the store delivered, in list order. */
  seen: number;
  /** Of those, posted in the state's month, and in the month before (UTC months). */
  cur: number;
  prev: number;
  /**
   * Months (`YYYY-MM`, from the previous one on) near whose first moment, within a time-zone's
   * reach of UTC, one of those videos was posted: whether billing counts it in that month or the
   * one before depends on the time zone billing counts in, which the spec leaves open.
   */
  edges: string[];
}

export interface Counts {
  pending: number;
  confirmed: number;
  completed: number;
  no_show: number;
  unacknowledged: number;
}

const FORMAT = 'crp-events/1';
const STATUS = { pending: 'p', confirmed: 'c', rejected: 'r', cancelled: 'x', completed: 'd', no_show: 'n' } as const;
const ACK = { forwarded_to_manager: 'f', acknowledged_self: 's' } as const;
const invert = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k])) as Record<string, string>;
const STATUS_OF = invert(STATUS);
const ACK_OF = invert(ACK);

// Known values pack to one letter; a value this version does not know is kept whole (escaped).
const packValue = (value: string, codes: Record<string, string>): string => codes[value] ?? `~${encodeURIComponent(value)}`;
const unpackValue = (packed: string, names: Record<string, string>): string =>
  packed.startsWith('~') ? decodeURIComponent(packed.slice(1)) : (names[packed] ?? packed);

export function packBooking(e: BookingEntry): string {
  const ack = e.ack === null ? '' : packValue(e.ack, ACK);
  return `${e.store.toString(36)}|${packValue(e.status, STATUS)}|${ack}|${e.visit === null ? '' : e.visit.toString(36)}`;
}

export function unpackBooking(packed: string): BookingEntry {
  const [store = '0', status = '', ack = '', visit = ''] = packed.split('|');
  return {
    store: parseInt(store, 36),
    status: unpackValue(status, STATUS_OF),
    ack: ack === '' ? null : unpackValue(ack, ACK_OF),
    visit: visit === '' ? null : parseInt(visit, 36),
  };
}

const packVideos = (v: VideoEntry): string => `${v.seen}|${v.cur}|${v.prev}${v.edges.length > 0 ? `|${v.edges.join(',')}` : ''}`;
function unpackVideos(packed: string | undefined): VideoEntry {
  if (packed === undefined) return { seen: 0, cur: 0, prev: 0, edges: [] };
  const [seen = '0', cur = '0', prev = '0', edges = ''] = packed.split('|');
  return { seen: Number(seen), cur: Number(cur), prev: Number(prev), edges: edges === '' ? [] : edges.split(',') };
}

/** The entry a booking gets from its wire form. */
export function entryOf(item: Reservation, store: number): BookingEntry {
  const visit = item.status === 'confirmed' && item.visit_at ? Math.floor(Date.parse(item.visit_at) / 60_000) : null;
  return { store, status: item.status, ack: item.acknowledged_kind, visit: Number.isNaN(visit) ? null : visit };
}

/** `YYYY-MM` of an instant, in UTC (the month billing counts use). */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  return monthOf(Date.UTC(y, m - 2, 15));
}

/** The month after `YYYY-MM`. */
export function nextMonth(month: string): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  return monthOf(Date.UTC(y, m, 15));
}

/** How far a store's clock can be from UTC (UTC+14 is the furthest ahead, UTC-12 the furthest behind). */
export const ZONE_REACH_MS = 14 * 3_600_000;

/**
 * The month whose first moment `ms` lies within a time zone's reach of, if any: a video posted then
 * falls in that month or the one before depending on the zone billing counts in.
 */
export function edgeOf(ms: number): string | undefined {
  const month = monthOf(ms);
  const after = monthOf(ms + ZONE_REACH_MS);
  if (after !== month) return after;
  return monthOf(ms - ZONE_REACH_MS) === month ? undefined : month;
}

export class WatchState {
  readonly stores: string[] = [];
  readonly #storeIndex = new Map<string, number>();
  readonly #bookings = new Map<string, string>();
  /** Bookings whose status can still change (pending, confirmed). */
  readonly open = new Set<string>();
  readonly #videos = new Map<number, string>();
  readonly counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
  videoTotal = 0;
  month = '';
  tail: { cursor: string | null; seen: number } = { cursor: null, seen: 0 };
  /** When the last completed full reconciliation started (epoch ms), or null before the first. */
  fullAt: number | null = null;
  #journalBytes = 0;
  #snapshotBytes = 0;

  get bookingCount(): number {
    return this.#bookings.size;
  }

  booking(id: string): BookingEntry | undefined {
    const packed = this.#bookings.get(id);
    return packed === undefined ? undefined : unpackBooking(packed);
  }

  videos(store: number): VideoEntry {
    return unpackVideos(this.#videos.get(store));
  }

  storeIndex(id: string): number | undefined {
    return this.#storeIndex.get(id);
  }

  /** The store's number, adding it (and the record that says so) when new. */
  ensureStore(id: string, out: StateRecord[]): number {
    const known = this.#storeIndex.get(id);
    if (known !== undefined) return known;
    const record: StateRecord = ['s', id];
    this.apply(record);
    out.push(record);
    return this.stores.length - 1;
  }

  /** Apply a record and add it to `out` (to be saved once the event it belongs to is confirmed). */
  record(record: StateRecord, out: StateRecord[]): void {
    this.apply(record);
    out.push(record);
  }

  apply(record: StateRecord): void {
    switch (record[0]) {
      case 's':
        this.#storeIndex.set(record[1], this.stores.length);
        this.stores.push(record[1]);
        return;
      case 'b': {
        const before = this.#bookings.get(record[1]);
        if (before !== undefined) this.#count(unpackBooking(before), -1);
        const after = unpackBooking(record[2]);
        this.#bookings.set(record[1], record[2]);
        this.#count(after, 1);
        if (after.status === 'pending' || after.status === 'confirmed') this.open.add(record[1]);
        else this.open.delete(record[1]);
        return;
      }
      case 'v':
        this.videoTotal += unpackVideos(record[2]).seen - this.videos(record[1]).seen;
        this.#videos.set(record[1], record[2]);
        return;
      case 't':
        this.tail = { cursor: record[1], seen: record[2] };
        return;
      case 'f':
        this.fullAt = record[1];
        return;
      case 'm':
        this.#rollMonth(record[1]);
        return;
    }
  }

  setVideos(store: number, entry: VideoEntry, out: StateRecord[]): void {
    this.record(['v', store, packVideos(entry)], out);
  }

  /** A new month: this month's counts become last month's (or are dropped if months were skipped). */
  #rollMonth(month: string): void {
    const adjacent = this.month !== '' && previousMonth(month) === this.month;
    for (const [store, packed] of this.#videos) {
      const v = unpackVideos(packed);
      const edges = v.edges.filter((edge) => edge >= previousMonth(month));
      this.#videos.set(store, packVideos({ seen: v.seen, cur: 0, prev: adjacent ? v.cur : 0, edges }));
    }
    this.month = month;
  }

  #count(entry: BookingEntry, delta: 1 | -1): void {
    if (entry.status in this.counts && entry.status !== 'unacknowledged') this.counts[entry.status as keyof Counts] += delta;
    if (entry.ack === null) this.counts.unacknowledged += delta;
  }

  // --- on the checkpoint ---

  snapshot(): string {
    return JSON.stringify({
      format: FORMAT,
      month: this.month,
      tail: this.tail,
      fullAt: this.fullAt,
      stores: this.stores,
      bookings: Object.fromEntries(this.#bookings),
      videos: Object.fromEntries(this.#videos),
    });
  }

  static async load(checkpoint: Checkpoint): Promise<WatchState> {
    const state = new WatchState();
    const lines = await checkpoint.load();
    lines.forEach((line, i) => state.#restore(line, i === lines.length - 1));
    return state;
  }

  #restore(line: string, last: boolean): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (cause) {
      // Only the newest record can be cut short (a crash while it was written): it was not confirmed.
      if (last) return;
      throw invalid('a record is not JSON', cause);
    }
    this.#journalBytes += line.length;
    if (Array.isArray(parsed)) {
      for (const record of parsed as StateRecord[]) this.apply(record);
      return;
    }
    const s = parsed as { format?: unknown; month: string; tail: WatchState['tail']; fullAt: number | null; stores: string[]; bookings: Record<string, string>; videos: Record<string, string> };
    if (s?.format !== FORMAT) throw invalid(`it is not a ${FORMAT} snapshot`);
    this.month = s.month;
    this.tail = s.tail;
    this.fullAt = s.fullAt;
    for (const id of s.stores) this.apply(['s', id]);
    for (const [id, packed] of Object.entries(s.bookings)) this.apply(['b', id, packed]);
    for (const [store, packed] of Object.entries(s.videos)) this.apply(['v', Number(store), packed]);
    this.#journalBytes = 0;
    this.#snapshotBytes = line.length;
  }

  /** Save the records of one confirmed event (or of a finished poll) as one journal line. */
  async commit(checkpoint: Checkpoint, records: StateRecord[]): Promise<void> {
    if (records.length === 0) return;
    const line = JSON.stringify(records);
    await checkpoint.save(line);
    this.#journalBytes += line.length;
  }

  /**
   * Replace the journal by a snapshot once the journal outweighs it (or when `force`): writes stay
   * proportional to the changes, and the checkpoint stays under about twice the snapshot's size.
   */
  async compact(checkpoint: Checkpoint, force = false): Promise<void> {
    if (!force && this.#journalBytes < Math.max(64 * 1024, this.#snapshotBytes)) return;
    const snapshot = this.snapshot();
    await checkpoint.save(snapshot, { replace: true });
    this.#snapshotBytes = snapshot.length;
    this.#journalBytes = 0;
  }
}

function invalid(why: string, cause?: unknown): CheckpointInvalidError {
  return new CheckpointInvalidError(
    `The checkpoint cannot be read: ${why}. It was written by something other than this version's watcher; give the watcher a new checkpoint (it then starts again as set by startFrom).`,
    { cause },
  );
}
