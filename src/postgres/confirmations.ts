/**
 * The stores a pass read and found as their rows hold them, kept until the sync writes them in one
 * statement (`confirmStores`) between passes. Only the latest read of a store is kept. Held in
 * memory only: a crash before the write loses them, and the rows keep an older `synced_at`, never
 * a wrong one (each read confirms the data the row held when it was read).
 */
import type { Location } from '../index.js';
import type { StoreConfirmation } from './rows.js';

export class StoreConfirmations {
  readonly #pending = new Map<string, StoreConfirmation>();

  /** The store family's `onUnchanged`. */
  readonly add = (store: Location, at: string): void => {
    this.#pending.set(store.partner_location_id, {
      partnerLocationId: store.partner_location_id,
      at,
      updatedAt: store.updated_at,
    });
  };

  get size(): number {
    return this.#pending.size;
  }

  /** The reads kept so far, forgotten here (written by the caller, or lost with it). */
  take(): StoreConfirmation[] {
    const reads = [...this.#pending.values()];
    this.#pending.clear();
    return reads;
  }
}
