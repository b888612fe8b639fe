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
 * A value per store number, where a family keeps one for most stores (a store's record, its video
 * counts): an array slot a store instead of a `Map` entry. Iterates `[number, value]` like a `Map`
 * of numbers (so `Object.fromEntries` takes it), in number order.
 */
export class PerStore<T> implements Iterable<[number, T]> {
  /** Every slot up to the highest number set exists (undefined where none is): the array stays packed. */
  #values: (T | undefined)[] = [];
  #size = 0;
  /**
   * With `shared`: one copy of each value (up to that many distinct values), for values most stores
   * have in common. A store's video counts take a few hundred values across 100,000 stores; each
   * built anew would be a string of its own.
   */
  readonly #shared: Map<T, T> | undefined;
  readonly #sharedMax: number;

  constructor(options: { shared?: number } = {}) {
    this.#sharedMax = options.shared ?? 0;
    this.#shared = this.#sharedMax > 0 ? new Map() : undefined;
  }

  get size(): number {
    return this.#size;
  }

  get(store: number): T | undefined {
    return this.#values[store];
  }

  has(store: number): boolean {
    return this.#values[store] !== undefined;
  }

  set(store: number, value: T): this {
    if (!Number.isInteger(store) || store < 0)
      throw new RangeError(`A store number is a whole number from 0; got ${store}.`);
    while (this.#values.length <= store) this.#values.push(undefined);
    if (this.#values[store] === undefined) this.#size++;
    this.#values[store] = this.#copyOf(value);
    return this;
  }

  clear(): void {
    this.#values = [];
    this.#size = 0;
    this.#shared?.clear();
  }

  /** The shared copy of `value` (it becomes that copy while there is room for one more). */
  #copyOf(value: T): T {
    const shared = this.#shared;
    if (shared === undefined) return value;
    const copy = shared.get(value);
    if (copy !== undefined) return copy;
    if (shared.size < this.#sharedMax) shared.set(value, value);
    return value;
  }

  /**
   * The values by store number as one object, for a snapshot: built by index, so that V8 keeps it
   * as an array of elements (8 bytes a store) and no `[number, value]` pair is made per store, as
   * `Object.fromEntries(this)` would (28 MB passing through at 100,000 stores).
   */
  byNumber(): Record<number, T> {
    const out: Record<number, T> = {};
    for (let store = 0; store < this.#values.length; store++) {
      const value = this.#values[store];
      if (value !== undefined) out[store] = value;
    }
    return out;
  }

  *[Symbol.iterator](): Iterator<[number, T]> {
    for (let store = 0; store < this.#values.length; store++) {
      const value = this.#values[store];
      if (value !== undefined) yield [store, value];
    }
  }
}
