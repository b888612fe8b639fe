/**
 * A set of ids kept by a 64-bit hash of each: 16 bytes an id at most (an open-addressing table of
 * two 32-bit words, at most half full), where a `Set` of the id strings costs some 70. For the ids
 * a walk over a whole list must remember until its end: the pending bookings of a fleet, 250,000 at
 * 100,000 stores, are 4 MB this way and 17 MB as a `Set`.
 *
 * Two different ids with the same 64-bit hash look like one: with n ids the chance that any two
 * share a hash is about n² / 2⁶⁵ (2 × 10⁻⁹ at 250,000). What uses it must stay correct when that
 * happens, only later: a booking taken for listed when it was not is found by the next walk or
 * the next full reconciliation.
 */

/** The two 32-bit halves of the last hash computed (no array allocated per id). */
let high = 0;
let low = 0;

/** Two 32-bit multiplicative hashes over the id's UTF-16 units, each mixed with the other at the end (cyrb53's mixing, kept at 64 bits). */
function hash(id: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  high = h1 >>> 0;
  // A low half of 0 marks an empty slot: an id whose low half is 0 is kept with 1.
  low = h2 >>> 0 || 1;
}

/** A 32-bit hash of the id (its 64-bit hash folded), for a table that checks the ids it finds. */
export function idHash32(id: string): number {
  hash(id);
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
}

/** What a caller asks of a set of ids: `Set<string>` is one too. */
export interface IdLookup {
  has(id: string): boolean;
}

export class IdHashSet implements IdLookup {
  #high = new Uint32Array(64);
  #low = new Uint32Array(64);
  #size = 0;

  /** How many different hashes it holds (ids, unless two shared one). */
  get size(): number {
    return this.#size;
  }

  add(id: string): this {
    hash(id);
    const slot = this.#slot();
    if (this.#low[slot] !== 0) return this;
    this.#high[slot] = high;
    this.#low[slot] = low;
    this.#size++;
    if (this.#size * 2 > this.#low.length) this.#grow();
    return this;
  }

  has(id: string): boolean {
    hash(id);
    return this.#low[this.#slot()] !== 0;
  }

  /** The slot that holds the hash in `high`/`low`, or the empty one where it would go (linear probing). */
  #slot(): number {
    const mask = this.#low.length - 1;
    for (let slot = (low ^ Math.imul(high, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const l = this.#low[slot] as number;
      if (l === 0 || (l === low && this.#high[slot] === high)) return slot;
    }
  }

  #grow(): void {
    const oldHigh = this.#high;
    const oldLow = this.#low;
    this.#high = new Uint32Array(oldLow.length * 2);
    this.#low = new Uint32Array(oldLow.length * 2);
    for (let i = 0; i < oldLow.length; i++) {
      if (oldLow[i] === 0) continue;
      high = oldHigh[i] as number;
      low = oldLow[i] as number;
      const slot = this.#slot();
      this.#high[slot] = high;
      this.#low[slot] = low;
    }
  }
}
