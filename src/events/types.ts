import type { Location, Reservation, Video } from '../index.js';
import type { Checkpoint, LockStatus } from './checkpoint.js';

/** The kinds of event the watcher delivers, named as the coming webhooks will name them. */
export type PartnerEventType = 'reservation.created' | 'reservation.updated' | 'video.published';

/** What every event carries. */
export interface PartnerEventBase {
  /**
   * Deterministic: the same change always has the same id (a hash of the booking or video and the
   * values it went from and to), so `id` is the key to drop duplicates by.
   */
  id: string;
  /**
   * When the watcher found the change (ISO 8601 UTC), on the service's clock as its responses tell
   * it (`Date`, `generated_at`), not the machine's: comparable with the service's own times. Not when
   * the change happened.
   */
  created_at: string;
  /** The store the booking or video belongs to. */
  partner_location_id: string;
}

/** A booking the watcher has not delivered before, in whatever status it is now (any status). */
export interface ReservationCreatedEvent extends PartnerEventBase {
  /** The kind of event. */
  type: 'reservation.created';
  /** The booking as the service returned it. */
  data: Reservation;
}

/** A booking's `status` or `acknowledged_kind` changed since it was last delivered. */
export interface ReservationUpdatedEvent extends PartnerEventBase {
  /** The kind of event. */
  type: 'reservation.updated';
  /** The booking as it is now. */
  data: Reservation;
  /** The fields that changed, with the values they had in the last event delivered for this booking. */
  previous: Partial<Pick<Reservation, 'status' | 'acknowledged_kind'>>;
}

/** A video the watcher has not delivered before. */
export interface VideoPublishedEvent extends PartnerEventBase {
  /** The kind of event. */
  type: 'video.published';
  /** The video as the service returned it. */
  data: Video;
}

/** One change, shaped like the webhooks the service plans: switch on `type` to narrow `data`. */
export type PartnerEvent = ReservationCreatedEvent | ReservationUpdatedEvent | VideoPublishedEvent;

/**
 * A store record read for the first time, or read again and found changed (any field the service
 * returns, `progress` and `next_visit` included). Only from a watcher started with `stores`.
 */
export interface LocationUpdatedEvent extends PartnerEventBase {
  /** The kind of event. */
  type: 'location.updated';
  /** The store as the service returned it. */
  data: Location;
  /**
   * The store's `status` in the last event delivered for it, when that changed; empty for a store
   * read for the first time or changed elsewhere.
   */
  previous: Partial<Pick<Location, 'status'>>;
}

/**
 * What a watcher started with `stores` delivers: every `PartnerEvent` and `location.updated`. A
 * union of its own, so a `switch` over `PartnerEvent` stays exhaustive for watchers without it.
 */
export type PartnerEventWithStores = PartnerEvent | LocationUpdatedEvent;

/** How store records are read (`stores` of `watchEvents()`). */
export interface StoreWatchOptions {
  /**
   * Every store record is read again at least this often (ms), the longest-unread first, unless
   * that would take more than a tenth of the watcher's share of the budget: then as often as that
   * tenth allows (docs/events.md). A store whose bookings or videos moved is read at once.
   * @default 21_600_000 (6 hours)
   */
  refreshMs?: number;
  /**
   * Told of each read whose answer is the store as last delivered (no `location.updated`): the
   * store and the service's time of the answer (ISO 8601, the watcher's estimate, as an event's
   * `created_at`). Nothing is saved for such a read; use it to record when a copy was last confirmed.
   *
   * @example
   * ```ts
   * watchEvents(client, { checkpoint, stores: { onUnchanged: (store, at) => confirmed.set(store.partner_location_id, at) } });
   * ```
   */
  onUnchanged?: (store: Location, at: string) => void;
}

/**
 * Options of `watchEvents()` with store records as a family of their own: `location.updated`
 * events as well (`PartnerEventWithStores`).
 *
 * @example
 * ```ts
 * const watcher = watchEvents(client, { checkpoint, stores: true });
 * for await (const event of watcher) if (event.type === 'location.updated') console.log(event.data.status);
 * ```
 */
export interface WatchOptionsWithStores extends Omit<WatchOptions, 'stores'> {
  /** Read store records too (`true`: the defaults of `StoreWatchOptions`). */
  stores: true | StoreWatchOptions;
}

/**
 * Options of `watchEvents()`. Durations are in milliseconds, like every option of the client.
 *
 * @example
 * ```ts
 * const watcher = watchEvents(client, { checkpoint: fileCheckpoint('./crp-events.json'), budgetShare: 0.3, signal });
 * ```
 */
export interface WatchOptions {
  /** Where the watcher keeps its position: `fileCheckpoint(path)`, `memoryCheckpoint()` or your own. */
  checkpoint: Checkpoint;
  /** Stops the watcher: the loop ends (without an error) after the call in progress. */
  signal?: AbortSignal;
  /**
   * Where an empty checkpoint starts. `'beginning'`: first deliver what already exists (every booking
   * as `reservation.created`, every video as `video.published`), a full sync. `'now'`: deliver only
   * changes made after the watcher starts. Ignored when the checkpoint holds a position.
   * @default 'beginning'
   */
  startFrom?: 'beginning' | 'now';
  /**
   * Largest share of the key's rate budget the watcher uses (0 < share <= 1); the rest stays free for
   * your own calls through the same client. The limit is read from the service's RateLimit headers.
   * @default 0.5
   */
  budgetShare?: number;
  /**
   * Longest time a change can go unnoticed: a full reconciliation of every booking and every store's
   * video count runs at least this often (cheap signals find most changes much sooner). Milliseconds.
   * Left out: 15 minutes, or the largest interval given when that is longer.
   * @default 900_000 (15 minutes)
   */
  maxLag?: number;
  /**
   * Wait between polls while changes flow, in milliseconds. Left out: 10 s, or `maxInterval` when
   * that is smaller (`maxLag` bounds both). Keep `minInterval <= maxInterval <= maxLag`.
   * @default 10_000
   */
  minInterval?: number;
  /**
   * Wait between polls when idle (the wait doubles from `minInterval` up to this), in milliseconds.
   * Left out: 60 s, raised to `minInterval` or lowered to `maxLag` when those were given.
   * @default 60_000
   */
  maxInterval?: number;
  /**
   * Run as a standby: while another watcher holds the checkpoint's lock, wait for it (instead of
   * failing with `CheckpointLockedError`), then go on from the checkpoint. For replicas of one
   * worker, with a lock that spans them (`redisCheckpoint()` from `@crp/partner-sdk/redis`); the
   * wait ends with `signal`, `stop()` or `client.close()`. Needs a checkpoint with `lock`.
   * @default false
   */
  standby?: boolean;
  /**
   * Fingerprints of keys this watcher's checkpoint may have been saved under before, for a key
   * rotation: a checkpoint of another key is refused (`CheckpointInvalidError`, whose message names
   * the fingerprint it was saved under), except one of these, which the watcher goes on from and
   * saves under the new key from then on. A fingerprint is `client.keyFingerprint` of a client
   * with that key; it is not the key.
   *
   * @example
   * ```ts
   * // After rotating from the old key to the new one:
   * const old = new PartnerClient({ apiKey: process.env.OLD_PARTNER_API_KEY }).keyFingerprint;
   * watchEvents(client, { checkpoint, previousKeys: [old] });
   * ```
   * @default []
   */
  previousKeys?: readonly string[];
  /**
   * Store records as events (`location.updated`) as well: pass `true` or `StoreWatchOptions`
   * (`WatchOptionsWithStores`), and the watcher's events are `PartnerEventWithStores`.
   * @default false
   */
  stores?: false;
}

/** What a watcher has done so far (`watcher.stats`). */
export interface WatchStats {
  /** API calls the watcher made (pages count one each; the transport's retries are not counted). */
  calls: number;
  /** Events handed to the loop. */
  events: number;
  /** Polls made, full reconciliations included. */
  polls: number;
  /** Full reconciliations completed (the first full sync is one). */
  reconciliations: number;
  /** Time spent waiting for the watcher's share of the budget, in milliseconds. */
  budgetWaitMs: number;
  /** The wait before the next poll, in milliseconds. */
  intervalMs: number;
  /**
   * Polls that failed (network, 5xx, 429 after retries, a page whose `next_cursor` leads back to a
   * page the walk already read); the watcher backs off and tries again.
   */
  errors: number;
  /** Bookings and stores the watcher's state holds. */
  tracked: { reservations: number; stores: number };
  /** When the last full reconciliation finished (ISO 8601 UTC), or null before the first. */
  lastReconciledAt: string | null;
  /**
   * The checkpoint's lock: `none` (not taken yet, or the checkpoint has none), `standby` (waiting
   * for another watcher's), `held`, `unreachable` (its store does not answer: nothing is delivered
   * until it does) or `lost` (another watcher took it over; the loop ends with `CheckpointLockedError`).
   */
  lock: 'none' | 'standby' | LockStatus;
  /** Times the lock's store became unreachable while the lock was held. */
  lockOutages: number;
  /**
   * Times the service's history went back under the checkpoint (a sandbox reset, a restored
   * backup): the watcher then forgets what it remembered and delivers everything that exists again.
   */
  historyResets: number;
  /** Why the history was last found to have gone back, or null when it never was. */
  lastHistoryReset: string | null;
  /**
   * Answers whose time (`Date` header, `summary.generated_at`) the watcher's estimate of the
   * service's time did not follow: malformed, before 2000 or after 9999-11, or not (yet) confirmed
   * by other answers. Each kind of refused time is also logged once through the client's logger.
   * Grows steadily when servers behind a balancer disagree on the time.
   */
  serviceTimeOutliers: number;
  /**
   * The last pass: a `poll` (each family looked where the summary says it moved; reason `not due`)
   * or a full `reconciliation`, and why: `first sync`, `due` (to end within `maxLag`), `position
   * refused` (the saved end of the booking list), `mismatch` (counts still differed from the
   * summary after a poll) or `history reset`. Null before the first pass.
   */
  lastPass: {
    kind: 'poll' | 'reconciliation';
    reason: 'first sync' | 'due' | 'position refused' | 'mismatch' | 'history reset' | 'not due';
  } | null;
}
