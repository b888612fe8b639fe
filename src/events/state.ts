/**
 * What a watcher remembers between runs, and how it is written to a checkpoint. The values of a
 * family's records are packed and checked by its finder (bookings.ts, videos.ts, stores.ts); here they are
 * kept, counted and replayed.
 *
 * Every booking seen (its store, status, acknowledged_kind and, while confirmed, the visit time),
 * each store's videos delivered (their ids) and counts, the end of the account's booking list (a
 * cursor and how many items of its last page were seen) and when the last full reconciliation
 * started. Bookings are packed into one short string each (~20 bytes plus the id), stores are
 * numbered.
 *
 * On the checkpoint: a snapshot (a JSON object, which also names the key's fingerprint and the
 * service it was written for) followed by journal lines, each a JSON array of records. A record
 * holds the new value of one thing (`['b', id, packed]`), so replaying the journal over the
 * snapshot gives the state as of the last confirmed event. Every line is checked before it is
 * used (checkpoint-format.ts).
 */
import { CheckpointInvalidError } from '../index.js';
import type { Checkpoint } from './checkpoint.js';
import { unpackBooking, type BookingEntry } from './bookings.js';
import { FORMAT, invalid, readLine, type Snapshot } from './checkpoint-format.js';
import type { StateRecord } from './records.js';
import { unpackStore } from './stores.js';
import { unpackVideos, videosInMonth, type VideoEntry } from './videos.js';

export type { StateRecord } from './records.js';

/** Whose data a checkpoint holds: the key's fingerprint (never the key) and the service's base URL. */
export interface StateIdentity {
  key: string;
  service: string;
}

export interface Counts {
  pending: number;
  confirmed: number;
  completed: number;
  no_show: number;
  unacknowledged: number;
}

/** Of the stores read (the store family), how many are in each status, and with hours missing. */
export interface StoreCounts {
  read: number;
  active: number;
  paused: number;
  terminated: number;
  hours_missing: number;
}

export class WatchState {
  readonly stores: string[] = [];
  readonly #storeIndex = new Map<string, number>();
  readonly #bookings = new Map<string, string>();
  /** Bookings whose status can still change (pending, confirmed). */
  readonly open = new Set<string>();
  readonly #videos = new Map<number, string>();
  /** Per store, the ids of the videos delivered (none for a store an older version saved by count). */
  readonly #videoIds = new Map<number, Set<string>>();
  readonly counts: Counts = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
  /** Per store, its record as last read (store family). */
  readonly #storeRecords = new Map<number, string>();
  readonly storeCounts: StoreCounts = { read: 0, active: 0, paused: 0, terminated: 0, hours_missing: 0 };
  videoTotal = 0;
  month = '';
  tail: { cursor: string | null; seen: number } = { cursor: null, seen: 0 };
  /** When the last completed full reconciliation started (epoch ms), or null before the first. */
  fullAt: number | null = null;
  /** The latest service time seen (epoch ms): a service whose clock is well before it went back. */
  seenAt: number | null = null;
  /** How often the service's history went back under this checkpoint. */
  resets = 0;
  identity: StateIdentity | undefined;
  #journalBytes = 0;
  #snapshotBytes = 0;
  /** False while the checkpoint holds no snapshot: the first save then writes one. */
  #snapshotSaved = false;

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

  /**
   * The ids of the store's videos delivered; undefined for a store saved by an older version,
   * which kept only how many (the first `seen` of its list, in list order).
   */
  deliveredVideos(store: number): ReadonlySet<string> | undefined {
    return this.#videoIds.get(store);
  }

  /** The store's record as last read (`status|hash[|m]`), or undefined before its first read. */
  storeRecord(store: number): string | undefined {
    return this.#storeRecords.get(store);
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
      case 'v': {
        const [, store, packed, ...delivered] = record;
        this.videoTotal += unpackVideos(packed).seen - this.videos(store).seen;
        this.#videos.set(store, packed);
        if (delivered.length === 0) return;
        const ids = this.#videoIds.get(store) ?? new Set<string>();
        for (const id of delivered) ids.add(id);
        this.#videoIds.set(store, ids);
        return;
      }
      case 'l': {
        const before = this.#storeRecords.get(record[1]);
        if (before !== undefined) this.#countStore(before, -1);
        this.#storeRecords.set(record[1], record[2]);
        this.#countStore(record[2], 1);
        return;
      }
      case 't':
        this.tail = { cursor: record[1], seen: record[2] };
        return;
      case 'f':
        this.fullAt = record[1];
        return;
      case 'm':
        this.#rollMonth(record[1]);
        return;
      case 'r':
        this.#forget(record[1]);
        return;
    }
  }

  /** Nothing known and never reset: a checkpoint the watcher has not written to yet. */
  get blank(): boolean {
    return this.fullAt === null && this.bookingCount === 0 && this.stores.length === 0 && this.resets === 0;
  }

  #forget(at: number): void {
    this.stores.length = 0;
    this.#storeIndex.clear();
    this.#bookings.clear();
    this.open.clear();
    this.#videos.clear();
    this.#videoIds.clear();
    this.#storeRecords.clear();
    for (const name of Object.keys(this.storeCounts) as Array<keyof StoreCounts>) this.storeCounts[name] = 0;
    for (const name of Object.keys(this.counts) as Array<keyof Counts>) this.counts[name] = 0;
    this.videoTotal = 0;
    this.month = '';
    this.tail = { cursor: null, seen: 0 };
    this.fullAt = null;
    this.seenAt = at;
    this.resets++;
  }

  /** A new month: this month's counts become last month's (or are dropped if months were skipped). */
  #rollMonth(month: string): void {
    for (const [store, packed] of this.#videos) this.#videos.set(store, videosInMonth(packed, this.month, month));
    this.month = month;
  }

  #count(entry: BookingEntry, delta: 1 | -1): void {
    if (entry.status in this.counts && entry.status !== 'unacknowledged')
      this.counts[entry.status as keyof Counts] += delta;
    if (entry.ack === null) this.counts.unacknowledged += delta;
  }

  #countStore(packed: string, delta: 1 | -1): void {
    const entry = unpackStore(packed);
    this.storeCounts.read += delta;
    if (entry.status === 'active' || entry.status === 'paused' || entry.status === 'terminated')
      this.storeCounts[entry.status] += delta;
    if (entry.hoursMissing) this.storeCounts.hours_missing += delta;
  }

  // --- on the checkpoint ---

  snapshot(): string {
    const snapshot: Snapshot = {
      format: FORMAT,
      month: this.month,
      tail: this.tail,
      fullAt: this.fullAt,
      stores: this.stores,
      bookings: Object.fromEntries(this.#bookings),
      videos: Object.fromEntries(this.#videos),
      videoIds: Object.fromEntries([...this.#videoIds].map(([store, ids]) => [store, [...ids]])),
      ...(this.#storeRecords.size > 0 ? { locations: Object.fromEntries(this.#storeRecords) } : {}),
      ...this.identity,
      seenAt: this.seenAt,
      resets: this.resets,
    };
    return JSON.stringify(snapshot);
  }

  /**
   * The state a checkpoint holds, every line checked (`CheckpointInvalidError` for anything that is
   * not a checkpoint of this watcher, or one of another key or service than `identity`; a key in
   * `previousKeys` is taken as this one, a rotation).
   */
  static async load(
    checkpoint: Checkpoint,
    identity?: StateIdentity,
    previousKeys: readonly string[] = [],
  ): Promise<WatchState> {
    const state = new WatchState();
    const lines = await checkpoint.load();
    for (const [i, line] of lines.entries()) state.#restore(line, i);
    if (identity) {
      const saved = state.identity;
      if (saved && saved.key !== identity.key && !previousKeys.includes(saved.key)) {
        throw foreign(
          'API key',
          ` (saved under the key with fingerprint ${saved.key}; this client's is ${identity.key})`,
          ` After a key rotation of the same account, pass previousKeys: ['${saved.key}'] to go on from it instead.`,
        );
      }
      if (saved && saved.service !== identity.service)
        throw foreign('service (base URL)', ` (${saved.service}, this client: ${identity.service})`);
      state.identity = identity;
      // A rotation is written down at once, so the old key's fingerprint is needed only this once.
      if (saved && saved.key !== identity.key) await state.compact(checkpoint, true);
    }
    return state;
  }

  #restore(text: string, index: number): void {
    const line = readLine(text, index);
    if ('records' in line) {
      for (const record of line.records) {
        const store =
          record[0] === 'b' ? unpackBooking(record[2]).store : record[0] === 'v' || record[0] === 'l' ? record[1] : -1;
        if (store >= this.stores.length)
          throw invalid(`line ${index + 1} names store number ${store}, which no earlier record added`);
        this.apply(record);
      }
      this.#journalBytes += text.length;
      return;
    }
    const s = line.snapshot;
    this.month = s.month;
    this.tail = { cursor: s.tail.cursor, seen: s.tail.seen };
    this.fullAt = s.fullAt;
    this.seenAt = s.seenAt ?? null;
    this.resets = s.resets ?? 0;
    if (s.key !== undefined && s.service !== undefined) this.identity = { key: s.key, service: s.service };
    for (const id of s.stores) this.apply(['s', id]);
    for (const [id, packed] of Object.entries(s.bookings)) {
      if (unpackBooking(packed).store >= s.stores.length)
        throw invalid(`the snapshot's booking ${id} names a store it does not list`);
      this.apply(['b', id, packed]);
    }
    for (const [store, packed] of Object.entries(s.videos)) {
      if (Number(store) >= s.stores.length)
        throw invalid(`the snapshot counts videos of store number ${store}, which it does not list`);
      this.apply([
        'v',
        Number(store),
        packed,
        ...(s.videoIds && Object.hasOwn(s.videoIds, store) ? (s.videoIds[store] as string[]) : []),
      ]);
    }
    for (const [store, packed] of Object.entries(s.locations ?? {})) {
      if (Number(store) >= s.stores.length)
        throw invalid(`the snapshot holds the record of store number ${store}, which it does not list`);
      this.apply(['l', Number(store), packed]);
    }
    this.#snapshotBytes = text.length;
    this.#snapshotSaved = true;
  }

  /** Save the records of one confirmed event (or of a finished poll) as one journal line. */
  async commit(checkpoint: Checkpoint, records: StateRecord[]): Promise<void> {
    if (records.length === 0) return;
    // A checkpoint begins with a snapshot: it names the key and service, and a damaged first line is never taken for a torn last one.
    if (!this.#snapshotSaved) return this.compact(checkpoint, true);
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
    this.#snapshotSaved = true;
    this.#snapshotBytes = snapshot.length;
    this.#journalBytes = 0;
  }
}

function foreign(what: string, detail: string, hint = ''): CheckpointInvalidError {
  return new CheckpointInvalidError(
    `The checkpoint belongs to another ${what}${detail}: its events and positions are not this one's. Nothing was changed. ` +
      `Give this watcher a checkpoint of its own (a new path or key), or delete this one to sync from the start as set by startFrom.${hint}`,
  );
}
