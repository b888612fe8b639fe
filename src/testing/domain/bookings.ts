import { CHANGED_ACK, CHANGED_STATUS } from '../model/change-log.js';
import { DomainError } from '../model/domain-error.js';
import type {
  Account,
  AcknowledgedKind,
  Booking,
  BookingStatus,
  CreatorProfile,
  MonthCounts,
  Store,
  Video,
} from '../model/model.js';
import { World } from '../model/world.js';

export function findBooking(account: Account, id: string): Booking {
  const seq = World.seqOf('res', id);
  const booking = seq === undefined ? undefined : bySeq(account.bookingList, seq);
  if (!booking || booking.id !== id) throw new DomainError({ kind: 'reservation_not_found', reservationId: id });
  return booking;
}

/** The record with this seq in a seq-ordered list. */
function bySeq<T extends { seq: number }>(list: readonly T[], seq: number): T | undefined {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = (list[mid] as T).seq;
    if (at === seq) return list[mid];
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Change a booking's status, keeping the store's counts and the change log in step. */
export function setStatus(world: World, booking: Booking, status: BookingStatus): void {
  if (booking.status === status) return;
  const counts = booking.store.counts;
  counts[booking.status]--;
  counts[status]++;
  booking.status = status;
  booking.store.account.changes.updated(booking, CHANGED_STATUS, world.clock.nowMs());
}

/** Record the merchant saw a booking; repeatable, the latest kind stands (a repeat of the same kind changes nothing). */
export function acknowledge(world: World, booking: Booking, kind: AcknowledgedKind): void {
  if (booking.acknowledgedKind === kind) return;
  if (booking.acknowledgedKind === null) booking.store.unacknowledged--;
  booking.acknowledgedKind = kind;
  booking.store.account.changes.updated(booking, CHANGED_ACK, world.clock.nowMs());
}

/**
 * Bookings and videos make their id from their `seq` when it is read, the same id every time:
 * populate holds a million of each, and a stored id string apiece cost about 160 MB and a fifth
 * of its time, while an id is read only when a record is answered or looked up.
 */
class StoredBooking implements Booking {
  acknowledgedKind: AcknowledgedKind | null = null;
  constructor(
    readonly seq: number,
    readonly store: Store,
    public status: BookingStatus,
    public visitAt: number | null,
    readonly timeZone: string,
    readonly partySize: number,
    readonly creator: CreatorProfile,
    readonly createdAt: number,
  ) {}

  get id(): string {
    return this.store.account.world.newId('res', this.seq);
  }
}

class StoredVideo implements Video {
  constructor(
    readonly seq: number,
    readonly booking: Booking,
    readonly platform: string,
    readonly postedAt: number,
  ) {}

  get id(): string {
    return this.booking.store.account.world.newId('vid', this.seq);
  }
}

/**
 * A new booking (pending unless `fields` say otherwise), from a creator the operator invited.
 * `logAt` is when the change log says it appeared (default `createdAt`): populate backdates
 * `created_at` but logs the booking at the simulated time it was made.
 */
export function addBooking(
  world: World,
  store: Store,
  createdAt: number,
  fields: Partial<Pick<Booking, 'status' | 'visitAt'>> = {},
  logAt?: number,
): Booking {
  // The random draws come before the seq, in this order, so a seed gives the bookings it always gave.
  const partySize = store.rng.int(1, 3);
  const creator = world.creators.invite(store.rng, store.rules);
  const booking = new StoredBooking(
    world.nextSeq(),
    store,
    fields.status ?? 'pending',
    fields.visitAt ?? null,
    store.timeZone,
    partySize,
    creator,
    createdAt,
  );
  store.bookings.push(booking);
  store.account.bookingList.push(booking);
  store.counts[booking.status]++;
  store.unacknowledged++;
  store.account.changes.created(booking, logAt ?? createdAt);
  return booking;
}

/** Add to a store's counts for the UTC month of `at` (GET /billing/monthly). */
export function countInMonth(store: Store, at: number, what: keyof MonthCounts): void {
  const month = monthKey(at);
  let counts = store.monthly.get(month);
  if (!counts) {
    counts = { videos: 0, completed: 0, noShows: 0 };
    store.monthly.set(month, counts);
  }
  counts[what]++;
}

/** The creator joins the store's creator list the first time one of their bookings is confirmed. */
export function acceptCreator(world: World, booking: Booking, at: number): void {
  const store = booking.store;
  if (store.creatorIds.has(booking.creator.id)) return;
  store.creatorIds.add(booking.creator.id);
  store.creators.push({ seq: world.nextSeq(), creator: booking.creator, acceptedAt: at });
}

/** A creator's video, posted at `at` after a completed visit (logged at `logAt`, default `at`). */
export function publishVideo(world: World, booking: Booking, at: number, logAt = at): void {
  const platform = booking.store.rng.pick(booking.creator.platforms);
  const video = new StoredVideo(world.nextSeq(), booking, platform, at);
  booking.store.videos.push(video);
  countInMonth(booking.store, at, 'videos');
  booking.store.account.changes.published(video, logAt);
}

/** A UTC month as a number, 202612 for December 2026 (cheaper than a string in hot loops). */
export function monthKey(at: number): number {
  // Most calls fall in the month of the previous one (populate writes millions): no Date then.
  if (at >= lastMonth.start && at < lastMonth.end) return lastMonth.key;
  const d = new Date(at);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  lastMonth = { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1), key: year * 100 + month + 1 };
  return lastMonth.key;
}

let lastMonth = { start: 0, end: 0, key: 0 };
