import type { SandboxChange } from './model/change-log.js';
import type { Account } from './model/model.js';
import { batchRecord, bookingRecord, creatorRecord, storeDetailRecord, videoRecord } from './http/records.js';
import type { World } from './model/world.js';

/** Read-only views of the sandbox's state for assertions, by the key that owns it. Records are wire-shaped. */
export interface Inspector {
  /** The account id behind a key (keys issued with `account` share one). */
  accountId(key: string): string;
  /** Every store of the key's account, in enrollment order, as the single-store read returns them. */
  stores(key: string): Array<ReturnType<typeof storeDetailRecord>>;
  /** One store of the key's account as the single-store read returns it, or undefined when there is none. */
  store(key: string, partnerLocationId: string): ReturnType<typeof storeDetailRecord> | undefined;
  /** Bookings of the account (or of one store), in creation order. */
  reservations(key: string, partnerLocationId?: string): Array<ReturnType<typeof bookingRecord>>;
  /** A store's published videos, in the order `GET /locations/{id}/content` pages them. */
  videos(key: string, partnerLocationId: string): Array<ReturnType<typeof videoRecord>>;
  /** The creators who accepted a booking at a store, in acceptance order, as `GET /locations/{id}/creators` returns them. */
  creators(key: string, partnerLocationId: string): Array<ReturnType<typeof creatorRecord>>;
  /** Every sample batch a store has had, oldest first (a duplicated new_batch shows as two more). */
  sampleBatches(key: string, partnerLocationId: string): Array<ReturnType<typeof batchRecord>>;
  /**
   * The ground-truth change log of the key's account, in `seq` order: every booking created (any
   * status), every status and acknowledged_kind change, every published video, with its simulated
   * time. `after` skips changes up to that `seq`; `limit` caps how many are returned (default: all).
   * @example
   * const changes = sandbox.inspect.changes(key, { after: lastSeq });
   */
  changes(key: string, options?: { after?: number; limit?: number }): SandboxChange[];
  /** Events waiting on the simulated timeline. */
  pendingEvents(): number;
}

export function createInspector(world: () => World): Inspector {
  const account = (key: string): Account => {
    const found = world().keys.find(key);
    if (!found) throw new Error('inspect: this key was not issued by this sandbox');
    return found.account;
  };
  const storeOf = (key: string, id: string) => account(key).stores.get(id);
  return {
    accountId: (key) => account(key).id,
    stores: (key) => account(key).storeList.map((s) => storeDetailRecord(s, world().clock.nowMs())),
    store: (key, id) => {
      const s = storeOf(key, id);
      return s && storeDetailRecord(s, world().clock.nowMs());
    },
    reservations: (key, id) =>
      (id === undefined ? account(key).bookingList : (storeOf(key, id)?.bookings ?? [])).map(bookingRecord),
    videos: (key, id) => (storeOf(key, id)?.videos ?? []).map(videoRecord),
    creators: (key, id) => (storeOf(key, id)?.creators ?? []).map(creatorRecord),
    sampleBatches: (key, id) => (storeOf(key, id)?.batches ?? []).map(batchRecord),
    changes: (key, options = {}) => account(key).changes.read(options.after ?? 0, options.limit),
    pendingEvents: () => world().clock.pendingEvents,
  };
}
