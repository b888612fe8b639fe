/**
 * The video family: `video.published`.
 *
 * The poll runs when the summary's video total differs from the state's, at most once per
 * `videoScanSpacing`: billing's per-store counts of the months a recent video can be in (one
 * call per 200 stores), then the content of each store whose count moved, until the total is
 * explained. The reconciliation compares billing's counts of this month and the last (every month
 * since the oldest booking on a first sync) and reads the stores that differ. Billing lists a
 * store only for the months it was enrolled by, and a store's history may be older: so a first
 * sync reads every store with a completed visit, and a later reconciliation whose counts leave the
 * summary's total short reads the stores with a completed visit that billing left out of a month it
 * read (one enrolled since, whose older videos only its content shows) until it is reached.
 *
 * Near a month's first moment the next month's counts are read too, and a store with a video
 * posted that close to it is read until billing's count for it is one its content explains
 * (`BilledCounts`, saved in the store's record), then again only when that count moves: the spec
 * does not say whether billing counts months in UTC or in the store's time zone, and either way no
 * video is missed.
 *
 * Each store's videos are one record, `['v', store, 'seen|cur|prev[|YYYY-MM,…[|YYYY-MM:n,…]]', ...ids delivered]`.
 */
import type { Summary } from '../index.js';
import { billedFrom, billedUnchanged, explainedCounts, type BilledCounts } from './billed-counts.js';
import { monthOf, monthStartNear, monthsFrom, nextMonth, previousMonth, ZONE_REACH_MS } from './calendar.js';
import { eventId } from './event-id.js';
import { page, type Finder, type FinderContext, type Found, type Reconciliation } from './finder.js';
import { invalid } from './checkpoint-invalid.js';
import type { BookingMonths } from './month-bounds.js';
import { CountsPerStore, PerStore, StoreSet } from './store-set.js';
import type { Family, FamilyState } from './family.js';
import {
  byStoreNumber,
  count,
  every,
  id,
  isObject,
  type Check,
  type RecordCodec,
  type StateRecord,
} from './records.js';

export type VideoRecord = ['v', number, string, ...string[]];

export interface VideoEntry {
  /**
   * Of the videos the store's list showed when last read, how many are delivered (all of them once
   * the read is done). Summed over stores, it is compared with the summary's `videos_published`.
   */
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
  /** Billing's counts the store's content explained, where its own counts cannot check them (`BilledCounts`). */
  billed?: BilledCounts | undefined;
}

export function packVideos(v: VideoEntry): string {
  const billed = Object.entries(v.billed ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([month, count]) => `${month}:${count}`);
  const edges = v.edges.length > 0 || billed.length > 0 ? `|${v.edges.join(',')}` : '';
  return `${v.seen}|${v.cur}|${v.prev}${edges}${billed.length > 0 ? `|${billed.join(',')}` : ''}`;
}

export function unpackVideos(packed: string | undefined): VideoEntry {
  if (packed === undefined) return { seen: 0, cur: 0, prev: 0, edges: [] };
  const [seen = '0', cur = '0', prev = '0', edges = '', billed = ''] = packed.split('|');
  const entry: VideoEntry = {
    seen: Number(seen),
    cur: Number(cur),
    prev: Number(prev),
    edges: edges === '' ? [] : edges.split(','),
  };
  if (billed !== '')
    entry.billed = Object.fromEntries(billed.split(',').map((pair) => [pair.slice(0, 7), Number(pair.slice(8))]));
  return entry;
}

/** A store's counts once the month `to` begins after `from`: this month's become last month's, or are dropped if months were skipped. */
export function videosInMonth(packed: string, from: string, to: string): string {
  const v = unpackVideos(packed);
  const adjacent = from !== '' && previousMonth(to) === from;
  const edges = v.edges.filter((edge) => edge >= previousMonth(to));
  return packVideos({
    seen: v.seen,
    cur: 0,
    prev: adjacent ? v.cur : 0,
    edges,
    billed: billedFrom(v.billed, previousMonth(to)),
  });
}

/** `seen|cur|prev[|YYYY-MM,…[|YYYY-MM:n,…]]`. */
const MONTHS = String.raw`\d{4}-\d{2}(,\d{4}-\d{2})*`;
const BILLED = String.raw`\d{4}-\d{2}:\d+(,\d{4}-\d{2}:\d+)*`;
const PACKED_VIDEOS = new RegExp(String.raw`^\d+\|\d+\|\d+(\|${MONTHS}|\|(${MONTHS})?\|${BILLED})?$`);
export const isPackedVideos: Check = (v) => typeof v === 'string' && PACKED_VIDEOS.test(v);

export const videoRecords: RecordCodec<VideoRecord> = { kind: 'v', checks: [count, isPackedVideos], more: id };

/**
 * A checkpoint's table of the videos delivered (the Postgres mirror's): a store's ids are read
 * when its content is read, and those of confirmed events written with the checkpoint's next
 * commit, so the process holds a bounded cache instead of every video's id.
 */
export interface VideoTable {
  /** The ids of the store's videos delivered (with those held for the next commit); none: `[]`. */
  read(store: number): Promise<string[]>;
  /** Write these ids of the store's videos delivered with the checkpoint's next commit. */
  hold(store: number, ids: readonly string[]): void;
  /** Forget every id with the next commit (before what is held after). */
  clear(): void;
}

/** Stores whose delivered ids are kept in memory beside a table. */
export const VIDEO_CACHE = 2_000;

/**
 * Per store, its video counts and the ids of the videos delivered, and how many were seen in all.
 * With a table (`VideoTable`), the counts stay in memory and the ids live there, a store's read
 * before its content is compared (`read`).
 */
export class VideoState implements FamilyState<VideoRecord> {
  readonly #table: VideoTable | undefined;
  /** Most stores' counts are alike (a few hundred values at 100,000 stores): one copy of each, up to 4,096. */
  readonly #videos = new PerStore<string>({ shared: 4096 });
  /**
   * Per store, the ids of the videos delivered (none for a store an older version saved by count);
   * with a table, those of the stores read lately.
   */
  readonly #videoIds = new Map<number, Set<string>>();
  /** With a table: ids applied, not yet taken for a commit (`keep`). */
  readonly #unsaved = new Map<number, Set<string>>();
  #loaded = false;
  moved = false;
  total = 0;

  constructor(table?: VideoTable) {
    this.#table = table;
  }

  videos(store: number): VideoEntry {
    return unpackVideos(this.#videos.get(store));
  }

  /** Read the store's delivered ids from the table (none: all in memory already), so `delivered()` has them. */
  async read(store: number): Promise<void> {
    this.#loaded = true;
    if (!this.#table) return;
    const cached = this.#videoIds.get(store);
    // Ids come only with a store's counts record: a store with none has none in the table (a first load's stores).
    const ids = cached ?? new Set(this.#videos.has(store) ? await this.#table.read(store) : []);
    // The store just read is the newest, also when it was cached: the oldest go first.
    this.#videoIds.delete(store);
    this.#videoIds.set(store, ids);
    for (const old of this.#videoIds.keys()) {
      if (this.#videoIds.size <= VIDEO_CACHE) break;
      this.#videoIds.delete(old);
    }
  }

  /**
   * The ids of the store's videos delivered; undefined for a store saved by an older version,
   * which kept only how many (the first `seen` of its list, in list order).
   */
  delivered(store: number): ReadonlySet<string> | undefined {
    const ids = this.#videoIds.get(store);
    if (!this.#table) return ids;
    if (ids === undefined)
      throw new Error(`The videos of store ${store} were not read from the checkpoint's table before use.`);
    const unsaved = this.#unsaved.get(store);
    const all = unsaved ? new Set([...ids, ...unsaved]) : ids;
    // An older version's count-only store has no ids anywhere.
    return all.size === 0 ? undefined : all;
  }

  apply(record: VideoRecord): void {
    const [, store, packed, ...delivered] = record;
    this.total += unpackVideos(packed).seen - this.videos(store).seen;
    this.#videos.set(store, packed);
    if (delivered.length === 0) return;
    const into = this.#table ? this.#unsaved : this.#videoIds;
    const ids = into.get(store) ?? new Set<string>();
    for (const id of delivered) ids.add(id);
    into.set(store, ids);
    if (this.#table && !this.#loaded) this.moved = true;
  }

  keep(record: VideoRecord): VideoRecord {
    const [, store, packed, ...delivered] = record;
    if (!this.#table || delivered.length === 0) return record;
    this.#table.hold(store, delivered);
    const unsaved = this.#unsaved.get(store);
    for (const id of delivered) {
      unsaved?.delete(id);
      this.#videoIds.get(store)?.add(id);
    }
    if (unsaved?.size === 0) this.#unsaved.delete(store);
    return ['v', store, packed];
  }

  storeOf(record: VideoRecord): number {
    return record[1];
  }

  snapshot(storesInTable = false): Record<string, unknown> {
    if (this.#table) {
      // The ids live in the table: those applied and not yet taken go there with the snapshot.
      for (const [store, ids] of [...this.#unsaved])
        this.keep(['v', store, this.#videos.get(store) ?? '0|0|0', ...ids]);
      this.moved = false;
      return { videos: storesInTable ? {} : this.#videos.byNumber(), videoIds: {} };
    }
    return {
      videos: this.#videos.byNumber(),
      videoIds: Object.fromEntries([...this.#videoIds].map(([store, ids]) => [store, [...ids]])),
    };
  }

  *restore(snapshot: Readonly<Record<string, unknown>>, stores: number): Iterable<VideoRecord> {
    const videoIds = snapshot.videoIds as Record<string, string[]> | undefined;
    for (const [store, packed] of Object.entries(snapshot.videos as Record<string, string>)) {
      if (Number(store) >= stores)
        throw invalid(`the snapshot counts videos of store number ${store}, which it does not list`);
      yield [
        'v',
        Number(store),
        packed,
        ...(videoIds && Object.hasOwn(videoIds, store) ? (videoIds[store] as string[]) : []),
      ];
    }
  }

  storeValue(store: number): string | undefined {
    return this.#videos.get(store);
  }

  /** Counts written in an earlier month are rolled to this one, as `newMonth` rolled those in memory. */
  fromTable(store: number, value: string, written: string, current: string): VideoRecord {
    return ['v', store, written === current ? value : videosInMonth(value, written, current)];
  }

  /** This month's counts become last month's (or are dropped if months were skipped). */
  newMonth(from: string, to: string): void {
    for (const [store, packed] of this.#videos) this.#videos.set(store, videosInMonth(packed, from, to));
  }

  forget(replayed = false): void {
    this.#videos.clear();
    this.#videoIds.clear();
    this.#unsaved.clear();
    // A reset read back from the checkpoint: the table was cleared with it and holds what came after.
    if (!replayed) this.#table?.clear();
    this.total = 0;
  }
}

export const videoFamily: Family<VideoRecord, VideoState, VideoTable> = {
  name: 'videos',
  column: 'videos',
  records: [videoRecords],
  snapshot: {
    videos: { check: byStoreNumber(isPackedVideos) },
    /** Per store number, the ids of its videos delivered; missing in older ones (they counted). */
    videoIds: {
      check: (v) => isObject(v) && every(Object.values(v), (ids) => Array.isArray(ids) && every(ids, id)),
      optional: true,
    },
  },
  create: (table) => new VideoState(table),
  finder: (context, settings) => new VideoFinder(context, { scanSpacing: settings.scanSpacing }),
};

export interface VideoFinderOptions {
  /** Shortest time between two billing scans of a poll (ms). */
  scanSpacing: number;
}

interface ScanOptions {
  /** Stop reading content once this holds (a poll: the summary's total explained). */
  enough?: () => boolean;
  /** Stores to read whatever billing says (a first sync: every store with a completed visit). */
  alsoStores?: StoreSet;
  /** Filled with every store billing lists. */
  listed?: StoreSet;
  /** Return the stores read and how many of the months listed each (a later reconciliation needs them). */
  tally?: boolean;
}

export class VideoFinder implements Finder {
  readonly #c: FinderContext;
  readonly #videos: VideoState;
  readonly #scanSpacing: number;
  /** A video total that billing could not explain; not chased again until the total moves. */
  #unexplained: number | undefined;
  #scanAt = Number.NEGATIVE_INFINITY;
  /** The months the bookings spanned at the last reconciliation: a poll's billing months stay within them. */
  #bookingMonths: BookingMonths | undefined;
  readonly wants = undefined;

  constructor(context: FinderContext, options: VideoFinderOptions) {
    this.#c = context;
    this.#videos = context.state.family(videoFamily);
    this.#scanSpacing = options.scanSpacing;
  }

  async *poll(summary: Summary): AsyncGenerator<Found> {
    // Billing is one call per 200 stores: read it at most once per scanSpacing.
    const scanDue = this.#c.local() - this.#scanAt >= this.#scanSpacing;
    const explained = () => this.#videos.total === summary.videos_published;
    if (!scanDue || explained() || this.#unexplained === summary.videos_published) return;
    this.#scanAt = this.#c.local();
    for (const month of this.#recentMonths()) {
      if (!explained()) yield* this.#scan([month], { enough: explained });
    }
    if (!explained()) this.#unexplained = summary.videos_published;
  }

  /** The counts of this month and the last (every month on a first sync), and the stores that differ. */
  async *reconcile(pass: Reconciliation): AsyncGenerator<Found> {
    this.#bookingMonths = pass.bookingMonths;
    const recent = this.#recentMonths();
    const months = pass.firstSync
      ? [...new Set([...monthsFrom(pass.earliestMonth, pass.bookingMonths.lastOf(this.#c.state.month)), ...recent])]
      : recent;
    // On a first sync, also every store with a completed visit (videos follow completed visits):
    // billing lists a store only for months it was enrolled in, and its history may be older.
    if (pass.firstSync) {
      yield* this.#scan(months, { alsoStores: pass.storesWithCompletedVisits, listed: pass.storesBilled });
      return;
    }
    const scanned = yield* this.#scan(months, { listed: pass.storesBilled, tally: true });
    // Later, a store enrolled since (or one whose first read a crash cut short) has videos billing
    // cannot point at: those of months before it was enrolled, which billing does not list it for.
    // Read while the summary's total is not reached (a video posted during the pass may exceed it):
    // the stores with no video known first, so a month of new stores costs their own reads only.
    const published = pass.summary?.videos_published ?? Number.POSITIVE_INFINITY;
    const unseen: string[] = [];
    const seen: string[] = [];
    for (const store of pass.storesWithCompletedVisits) {
      if (scanned.read.has(store) || (scanned.listings.get(store) ?? 0) >= months.length) continue;
      const index = this.#c.state.storeIndex(store);
      (index === undefined || this.#videos.videos(index).seen === 0 ? unseen : seen).push(store);
    }
    for (const store of [...unseen, ...seen]) {
      if (this.#videos.total >= published) return;
      yield* this.#content(store);
    }
  }

  /**
   * The billing months a recent video can be counted in: this one (UTC), the last, and the next
   * while a store somewhere may already be in it.
   */
  #recentMonths(): string[] {
    const month = this.#c.state.month;
    const ahead = monthOf(this.#c.service.now() + ZONE_REACH_MS);
    const months = ahead === month ? [month, previousMonth(month)] : [month, previousMonth(month), ahead];
    return this.#bookingMonths?.recentWithin(months, previousMonth, nextMonth) ?? months;
  }

  /**
   * Compare billing's per-store video counts for `months` with the state; read the content of
   * stores that differ (and `alsoStores`), until `enough`; every store billing lists goes into
   * `listed`. With `tally`, returns the stores read, and in how many of the months billing listed
   * each (a first sync reads every store and needs neither; a poll's scan neither).
   */
  async *#scan(
    months: string[],
    { enough = () => false, alsoStores, listed, tally = false }: ScanOptions = {},
  ): AsyncGenerator<Found, { read: StoreSet; listings: CountsPerStore }> {
    const state = this.#c.state;
    const stale = new StoreSet(state, alsoStores);
    const recent = new Set(this.#recentMonths());
    /**
     * Billing's counts of this month and the last (and the next) for the stores to read: those the
     * state cannot check are saved once the content, read after them, explains them.
     */
    const billed = new Map<string, CountsPerStore>();
    const listings = new CountsPerStore(state);
    for (const month of months) {
      const inMonth = new StoreSet(state);
      const billedInMonth = recent.has(month) ? new CountsPerStore(state) : undefined;
      if (billedInMonth) billed.set(month, billedInMonth);
      const list = (c: string | undefined) =>
        this.#c.client.reports.billingMonthly(month, page(c), this.#c.lists.options);
      const known = this.#known(month);
      for await (const current of this.#c.lists.walk(list)) {
        for (const row of current.items) {
          const store = row.partner_location_id;
          listed?.add(store);
          if (tally && !inMonth.has(store)) {
            inMonth.add(store);
            listings.set(store, (listings.get(store) ?? 0) + 1);
          }
          const index = state.storeIndex(store);
          const entry = index === undefined ? undefined : this.#videos.videos(index);
          const have = entry === undefined || known === undefined ? 0 : entry[known];
          if (this.#inDoubt(entry, month, row.videos_published)) {
            if (billedUnchanged(entry?.billed, month, row.videos_published)) continue;
            stale.add(store);
          } else if (row.videos_published > have || (row.videos_published < have && known !== undefined))
            stale.add(store);
          if (stale.has(store)) billedInMonth?.set(store, row.videos_published);
        }
      }
    }
    const read = new StoreSet(state);
    for (const storeId of stale) {
      const postedAt = yield* this.#content(storeId);
      if (tally) read.add(storeId);
      const counts = billedOf(storeId, billed);
      if (counts) yield* this.#explained(storeId, counts, postedAt);
      if (enough()) break;
    }
    return { read, listings };
  }

  /** The state's count `month` is compared with, if it keeps one. */
  #known(month: string): 'cur' | 'prev' | undefined {
    const state = this.#c.state;
    return month === state.month ? 'cur' : month === previousMonth(state.month) ? 'prev' : undefined;
  }

  /**
   * Near a month's first moment the count depends on billing's time zone, and a month the state
   * does not count has nothing to compare with: only the content tells, and then billing's count
   * read before it, until that count moves.
   */
  #inDoubt(entry: VideoEntry | undefined, month: string, count: number): boolean {
    const zoneDependent = entry?.edges.some((edge) => edge === month || edge === nextMonth(month)) ?? false;
    return zoneDependent || (this.#known(month) === undefined && count > 0);
  }

  /**
   * Save in the store's record billing's counts (read before its content) that its content, just
   * read, explains, for the months where the state cannot check them: also those the read itself
   * put in doubt (a first sync's stores, a video new near a month's first moment).
   */
  *#explained(
    storeId: string,
    counts: Readonly<Record<string, number>>,
    postedAt: readonly number[],
  ): Generator<Found> {
    // Numbered by the content read just before.
    const store = this.#c.state.storeIndex(storeId) as number;
    const entry = this.#videos.videos(store);
    const doubted = new Map(Object.entries(counts).filter(([month, count]) => this.#inDoubt(entry, month, count)));
    const packed = packVideos({ ...entry, billed: explainedCounts(entry.billed, doubted, postedAt) });
    if (packed === packVideos(entry)) return;
    const records: StateRecord[] = [];
    this.#c.state.record(['v', store, packed], records);
    yield { records };
  }

  /**
   * A store's videos: those whose id was not delivered before are new, wherever the list puts them;
   * a video listed twice counts once. A store an older version saved kept only how many it had
   * delivered: the first that many listed count as delivered, as that version read them, and
   * their ids are saved with the store's next record, so it is tracked by id from then on.
   * Returns when each listed video was posted (each video once).
   */
  async *#content(storeId: string): AsyncGenerator<Found, number[]> {
    const state = this.#c.state;
    const videos = [];
    const list = (c: string | undefined) => this.#c.client.content.list(storeId, page(c), this.#c.lists.options);
    for await (const current of this.#c.lists.walk(list)) videos.push(...current.items);
    const records: StateRecord[] = [];
    const store = state.ensureStore(storeId, records);
    await this.#videos.read(store);
    const known = this.#videos.videos(store);
    const delivered = this.#videos.delivered(store);
    const listed = new Set<string>();
    /** Ids of a count-only store's first `known.seen` videos, not saved yet. */
    const adopted: string[] = [];
    // Billing's explained counts stay with the store until the scan that read it checks them again.
    const tally = { seen: 0, cur: 0, prev: 0, edges: [] as string[], billed: known.billed };
    const postedAt: number[] = [];
    const previous = previousMonth(state.month);
    for (const video of videos) {
      if (listed.has(video.video_id)) continue;
      listed.add(video.video_id);
      tally.seen++;
      const posted = Date.parse(video.posted_at);
      postedAt.push(posted);
      const month = monthOf(posted);
      if (month === state.month) tally.cur++;
      else if (month === previous) tally.prev++;
      const edge = monthStartNear(posted);
      if (edge !== undefined && edge >= previous && !tally.edges.includes(edge)) tally.edges = [...tally.edges, edge];
      if (delivered === undefined ? listed.size <= known.seen : delivered.has(video.video_id)) {
        if (delivered === undefined) adopted.push(video.video_id);
        continue;
      }
      state.record(['v', store, packVideos({ ...tally }), ...adopted.splice(0), video.video_id], records);
      yield {
        event: {
          id: eventId(`v|${video.video_id}`),
          type: 'video.published',
          created_at: new Date(this.#c.service.now()).toISOString(),
          partner_location_id: storeId,
          data: video,
        },
        records: records.splice(0),
      };
    }
    // Nothing new, but the month's counts may need correcting (so billing stops pointing here).
    if (
      adopted.length > 0 ||
      tally.seen !== known.seen ||
      tally.cur !== known.cur ||
      tally.prev !== known.prev ||
      tally.edges.join() !== known.edges.join()
    ) {
      state.record(['v', store, packVideos(tally), ...adopted], records);
    }
    if (records.length > 0) yield { records };
    return postedAt;
  }
}

/** Billing's counts of one store, by month, from the scan's counts per month; undefined when it has none. */
function billedOf(store: string, billed: ReadonlyMap<string, CountsPerStore>): Record<string, number> | undefined {
  let counts: Record<string, number> | undefined;
  for (const [month, inMonth] of billed) {
    const count = inMonth.get(store);
    if (count !== undefined) (counts ??= {})[month] = count;
  }
  return counts;
}
