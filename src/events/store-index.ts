/**
 * The state's store number of each store id, over the ids the state keeps (store-ids.ts): an
 * open-addressing table of numbers, 4 to 8 bytes a store, where a `Map` from id to number costs
 * some 35 (3.5 MB at 100,000 stores). A slot holds a number; the id is checked against the ids
 * kept, so two ids sharing a hash never mix.
 */
import { idHash32 } from './id-hashes.js';
import type { StoreIds } from './store-ids.js';

export class StoreIndex {
  readonly #ids: StoreIds;
  /** Per slot, a store number plus one; 0 is an empty slot. At most half full. */
  #slots = new Uint32Array(64);
  #size = 0;

  /** `ids`: the ids the numbers index, which the caller appends to before `add`. */
  constructor(ids: StoreIds) {
    this.#ids = ids;
  }

  get(id: string): number | undefined {
    const slot = this.#slot(id);
    const held = this.#slots[slot] as number;
    return held === 0 ? undefined : held - 1;
  }

  /** Store `number` has `id` (an id already held moves to the new number, as `Map.set` would). */
  add(id: string, number: number): void {
    const slot = this.#slot(id);
    if (this.#slots[slot] === 0) this.#size++;
    this.#slots[slot] = number + 1;
    if (this.#size * 2 > this.#slots.length) this.#grow();
  }

  clear(): void {
    this.#slots = new Uint32Array(64);
    this.#size = 0;
  }

  /** The slot that holds `id`'s number, or the empty one where it would go (linear probing). */
  #slot(id: string): number {
    const mask = this.#slots.length - 1;
    for (let slot = idHash32(id) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot] as number;
      if (held === 0 || this.#ids.is(held - 1, id)) return slot;
    }
  }

  /** Twice the slots, each number placed again by its id's hash (ids are not kept here). */
  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (const held of old) {
      if (held === 0) continue;
      this.#slots[this.#slot(this.#ids.get(held - 1) as string)] = held;
    }
  }
}
