/**
 * Sets and counts of stores that a pass over the whole fleet builds (the stores billing listed,
 * those with a completed visit, those to read, those whose bookings or videos moved), kept by the
 * state's store number: a bit or a slot of a typed array a store, where a `Set` of ids costs a
 * hash-table entry each. At 100,000 stores a set is 12.5 KB instead of 2.5 MB, and a pass holds
 * several at once. A store the state has not numbered yet is kept by its id beside them. And the
 * value a family keeps for nearly every store (`PerStore`), in an array slot rather than a `Map` entry.
 *
 * Numbers only grow while a set lives: the state numbers stores in the order it meets them and
 * renumbers only when the service's history goes back, which a pass handles before it builds its
 * sets (a set kept from pass to pass is emptied then: `clear()`).
 */

/** How a set finds a store's number and a number's store: the watcher's state. */
export interface StoreNumbers {
  storeIndex(id: string): number | undefined;
  readonly stores: { get(n: number): string | undefined };
}

/** A set of store ids, by store number; iterates the numbered stores in number order, then the others. */
export class StoreSet implements Iterable<string> {
  readonly #numbers: StoreNumbers;
  #bits = new Uint32Array(0);
  readonly #unnumbered = new Set<string>();

  constructor(numbers: StoreNumbers, ids: Iterable<string> = []) {
    this.#numbers = numbers;
    for (const id of ids) this.add(id);
  }

  has(id: string): boolean {
    const n = this.#numbers.storeIndex(id);
    return (n !== undefined && this.#bit(n)) || this.#unnumbered.has(id);
  }

  add(id: string): this {
    if (this.has(id)) return this;
    const n = this.#numbers.storeIndex(id);
    if (n === undefined) this.#unnumbered.add(id);
    else {
      if (n >>> 5 >= this.#bits.length) this.#bits = grown(this.#bits, (n >>> 5) + 1);
      (this.#bits[n >>> 5] as number) |= 1 << (n & 31);
    }
    return this;
  }

  delete(id: string): boolean {
    const n = this.#numbers.storeIndex(id);
    if (n !== undefined && this.#bit(n)) (this.#bits[n >>> 5] as number) &= ~(1 << (n & 31));
    else return this.#unnumbered.delete(id);
    return true;
  }

  clear(): void {
    this.#bits = new Uint32Array(0);
    this.#unnumbered.clear();
  }

  /**
   * A store added while iterating is visited when its number (or, unnumbered, its turn) is still
   * ahead. A store numbered after it was added stays with the unnumbered ones (`add` checks `has`).
   */
  *[Symbol.iterator](): Iterator<string> {
    for (let word = 0; word < this.#bits.length; word++) {
      for (let bit = 0; bit < 32; bit++) {
        if (((this.#bits[word] as number) & (1 << bit)) === 0) continue;
        yield this.#numbers.stores.get(word * 32 + bit) as string;
      }
    }
    yield* this.#unnumbered;
  }

  #bit(n: number): boolean {
    // Past the end reads undefined, which `&` takes as 0.
    return ((this.#bits[n >>> 5] as number) & (1 << (n & 31))) !== 0;
  }
}

/** A whole number per store (counts from 0 up), by store number; `get` is undefined for a store never set. */
export class CountsPerStore {
  readonly #numbers: StoreNumbers;
  /** The count plus one: 0 is a store never set. */
  #slots = new Uint32Array(0);
  readonly #unnumbered = new Map<string, number>();

  constructor(numbers: StoreNumbers) {
    this.#numbers = numbers;
  }

  get(id: string): number | undefined {
    const unnumbered = this.#unnumbered.get(id);
    if (unnumbered !== undefined) return unnumbered;
    const n = this.#numbers.storeIndex(id);
    const slot = n === undefined ? 0 : (this.#slots[n] ?? 0);
    return slot === 0 ? undefined : slot - 1;
  }

  set(id: string, count: number): this {
    if (!Number.isInteger(count) || count < 0 || count >= 0xffff_ffff)
      throw new RangeError(`A store's count is a whole number from 0 to 4,294,967,294; got ${count}.`);
    const n = this.#numbers.storeIndex(id);
    // Kept where it was first put: a store numbered since keeps its count by id.
    if (n === undefined || this.#unnumbered.has(id)) {
      this.#unnumbered.set(id, count);
      return this;
    }
    if (n >= this.#slots.length) this.#slots = grown(this.#slots, n + 1);
    this.#slots[n] = count + 1;
    return this;
  }
}

/** A copy at least `length` long, doubled so that adding store after store stays linear. */
function grown(array: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
  const copy = new Uint32Array(Math.max(length, array.length * 2, 32));
  copy.set(array);
  return copy;
}

/**
 * A value per store number, where a family keeps one for most stores that most stores share with
 * others (a store's video counts: a few hundred values across 100,000 stores): each distinct value
 * is kept once, and a store holds its number in a `Uint16Array`, 2 bytes a store outside the JS
 * heap, instead of an array slot (8 bytes on the heap) or a `Map` entry. Values past the number it
 * shares (`shared`, at most 65,534) are kept by store beside them, after the values no store holds
 * any more are dropped. Iterates `[number, value]` like a `Map` of numbers (so `Object.fromEntries`
 * takes it), in number order.
 */
export class PerStore<T> implements Iterable<[number, T]> {
  /** Per store number: 0 for none, `OTHER` for a value in `#others`, else its index in `#distinct` plus one. */
  #slots = new Uint16Array(0);
  #distinct: T[] = [];
  #indexOf = new Map<T, number>();
  readonly #others = new Map<number, T>();
  readonly #sharedMax: number;
  /** Values set since the distinct values were last gone over: they are again once as many as fit. */
  #setsSinceDrop = 0;
  #size = 0;

  constructor(options: { shared?: number } = {}) {
    this.#sharedMax = Math.min(options.shared ?? OTHER - 1, OTHER - 1);
  }

  get size(): number {
    return this.#size;
  }

  /** How the values are kept: `shared`, distinct values kept once; `byStore`, stores whose value is kept for it alone. */
  get kept(): { shared: number; byStore: number } {
    return { shared: this.#distinct.length, byStore: this.#others.size };
  }

  get(store: number): T | undefined {
    const slot = this.#slots[store] ?? 0;
    if (slot === 0) return undefined;
    return slot === OTHER ? this.#others.get(store) : this.#distinct[slot - 1];
  }

  has(store: number): boolean {
    return (this.#slots[store] ?? 0) !== 0;
  }

  set(store: number, value: T): this {
    if (!Number.isInteger(store) || store < 0)
      throw new RangeError(`A store number is a whole number from 0; got ${store}.`);
    if (store >= this.#slots.length) this.#slots = grown16(this.#slots, store + 1);
    if (this.#slots[store] === 0) this.#size++;
    else {
      // Its value before is no longer one it holds, should the unused values be dropped now.
      this.#others.delete(store);
      this.#slots[store] = 0;
    }
    this.#setsSinceDrop++;
    const index = this.#indexFor(value);
    if (index === undefined) this.#others.set(store, value);
    this.#slots[store] = index === undefined ? OTHER : index + 1;
    return this;
  }

  clear(): void {
    this.#slots = new Uint16Array(0);
    this.#distinct = [];
    this.#indexOf.clear();
    this.#others.clear();
    this.#setsSinceDrop = 0;
    this.#size = 0;
  }

  /** `value`'s index among the distinct values, added when new and there is room (after dropping those unused). */
  #indexFor(value: T): number | undefined {
    const known = this.#indexOf.get(value);
    if (known !== undefined) return known;
    if (this.#distinct.length >= this.#sharedMax && this.#setsSinceDrop >= this.#sharedMax) this.#dropUnused();
    if (this.#distinct.length >= this.#sharedMax) return undefined;
    this.#indexOf.set(value, this.#distinct.length);
    return this.#distinct.push(value) - 1;
  }

  /** Keeps only the distinct values some store holds, renumbered: values a store no longer has take no room. */
  #dropUnused(): void {
    const renumbered = new Uint16Array(this.#distinct.length + 1);
    const kept: T[] = [];
    for (let store = 0; store < this.#slots.length; store++) {
      const slot = this.#slots[store] as number;
      if (slot === 0 || slot === OTHER) continue;
      if (renumbered[slot] === 0) renumbered[slot] = kept.push(this.#distinct[slot - 1] as T);
      this.#slots[store] = renumbered[slot] as number;
    }
    this.#distinct = kept;
    this.#indexOf = new Map(kept.map((value, index) => [value, index]));
    this.#setsSinceDrop = 0;
  }

  /**
   * The values by store number as one object, for a snapshot: built by index, so that V8 keeps it
   * as an array of elements (8 bytes a store) and no `[number, value]` pair is made per store, as
   * `Object.fromEntries(this)` would (28 MB passing through at 100,000 stores).
   */
  byNumber(): Record<number, T> {
    const out: Record<number, T> = {};
    for (let store = 0; store < this.#slots.length; store++) {
      const value = this.get(store);
      if (value !== undefined) out[store] = value;
    }
    return out;
  }

  *[Symbol.iterator](): Iterator<[number, T]> {
    for (let store = 0; store < this.#slots.length; store++) {
      const value = this.get(store);
      if (value !== undefined) yield [store, value];
    }
  }
}

/** The slot of a store whose value is kept by store (`PerStore`). */
const OTHER = 0xffff;

function grown16(array: Uint16Array, length: number): Uint16Array<ArrayBuffer> {
  const copy = new Uint16Array(Math.max(length, array.length * 2, 32));
  copy.set(array);
  return copy;
}
