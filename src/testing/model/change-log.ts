/**
 * The ground-truth change log: every booking creation, status change, acknowledgement change and
 * published video, with the simulated time it happened. An event stream can be checked against it.
 *
 * One log per account, kept in columns (typed arrays and one reference array) rather than an
 * object per change: a million populated bookings log a million changes, and a record object
 * each would cost several times the memory. Reading a page is a binary search on `seq`.
 */
import type { AcknowledgedKind, Booking, BookingStatus, Video } from './model.js';
import { formatUtc } from './zoned-time.js';

/** One change, as `sandbox.inspect.changes()` and `GET /_sandbox/changes` return it. */
export interface SandboxChange {
  /** 1, 2, 3 … strictly increasing across the whole sandbox (every account shares one sequence). */
  seq: number;
  /** Simulated time of the change, ISO 8601 UTC. */
  at: string;
  /** The store the booking or video belongs to. */
  partner_location_id: string;
  /** What happened: a booking appeared, a booking changed, or a video was published. */
  type: 'reservation.created' | 'reservation.updated' | 'video.published';
  /** For `video.published`: the booking the video came from. */
  reservation_id: string;
  /** `video.published` only. */
  video_id?: string;
  /** `reservation.updated` only: what changed. */
  changed?: Array<'status' | 'acknowledged_kind'>;
  /** `reservation.*`: the booking's status after the change. */
  status?: string;
  /** `reservation.*`: the booking's acknowledged_kind after the change. */
  acknowledged_kind?: string | null;
}

const TYPES = ['reservation.created', 'reservation.updated', 'video.published'] as const;
const STATUSES: readonly BookingStatus[] = ['pending', 'confirmed', 'rejected', 'cancelled', 'completed', 'no_show'];
const KINDS: ReadonlyArray<AcknowledgedKind | null> = [null, 'forwarded_to_manager', 'acknowledged_self'];
/** Bits of the `changed` column. */
export const CHANGED_STATUS = 1;
export const CHANGED_ACK = 2;

/** The sequence every account's log draws from, so `seq` orders changes across the sandbox. */
export class ChangeSequence {
  #last = 0;
  next(): number {
    return ++this.#last;
  }
}

export class ChangeLog {
  #size = 0;
  #seq = new Float64Array(64);
  #at = new Float64Array(64);
  /** type index | changed bits << 2 | status index << 4 | kind index << 8 */
  #packed = new Uint16Array(64);
  #subject: Array<Booking | Video> = [];

  constructor(private readonly sequence: ChangeSequence) {}

  get size(): number {
    return this.#size;
  }

  created(booking: Booking, at: number): void {
    this.#push(0, 0, booking, at);
  }

  updated(booking: Booking, changed: number, at: number): void {
    this.#push(1, changed, booking, at);
  }

  published(video: Video, at: number): void {
    this.#push(2, 0, video, at);
  }

  /** Changes with `seq` above `after`, oldest first, at most `limit` of them. */
  read(after = 0, limit = Number.POSITIVE_INFINITY): SandboxChange[] {
    const out: SandboxChange[] = [];
    for (let i = this.#firstAfter(after); i < this.#size && out.length < limit; i++) out.push(this.#record(i));
    return out;
  }

  /** Whether any change has a `seq` above `after`. */
  hasAfter(after: number): boolean {
    return this.#size > 0 && (this.#seq[this.#size - 1] as number) > after;
  }

  #push(type: number, changed: number, subject: Booking | Video, at: number): void {
    if (this.#size === this.#seq.length) this.#grow();
    const i = this.#size++;
    const booking = type === 2 ? (subject as Video).booking : (subject as Booking);
    this.#seq[i] = this.sequence.next();
    this.#at[i] = at;
    this.#packed[i] =
      type | (changed << 2) | (STATUSES.indexOf(booking.status) << 4) | (KINDS.indexOf(booking.acknowledgedKind) << 8);
    this.#subject.push(subject);
  }

  #grow(): void {
    const grow = <T extends Float64Array | Uint16Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.#seq = grow(this.#seq);
    this.#at = grow(this.#at);
    this.#packed = grow(this.#packed);
  }

  #firstAfter(seq: number): number {
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#seq[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #record(i: number): SandboxChange {
    const packed = this.#packed[i] as number;
    const type = TYPES[packed & 3] as SandboxChange['type'];
    const base = { seq: this.#seq[i] as number, at: formatUtc(this.#at[i] as number) };
    if (type === 'video.published') {
      const video = this.#subject[i] as Video;
      return {
        ...base,
        partner_location_id: video.booking.store.id,
        type,
        reservation_id: video.booking.id,
        video_id: video.id,
      };
    }
    const booking = this.#subject[i] as Booking;
    const changed = (packed >> 2) & 3;
    return {
      ...base,
      partner_location_id: booking.store.id,
      type,
      reservation_id: booking.id,
      ...(type === 'reservation.updated'
        ? {
            changed: [
              ...(changed & CHANGED_STATUS ? ['status' as const] : []),
              ...(changed & CHANGED_ACK ? ['acknowledged_kind' as const] : []),
            ],
          }
        : {}),
      status: STATUSES[(packed >> 4) & 15] as string,
      acknowledged_kind: KINDS[(packed >> 8) & 3] ?? null,
    };
  }
}
