/**
 * The stores' ids by store number (`get(n)` is store n's `partner_location_id`), in one growing
 * byte buffer rather than a string each. A string costs some 30 bytes of the JS heap plus a slot of
 * the list that holds it, and V8, left to its defaults, lets its heap grow to several times what is
 * live: at 100,000 stores the ids alone would weigh some 15 MB of the process. Here an id of ASCII
 * characters (the usual kind) is its bytes plus 4 bytes where it ends, outside the JS heap. An id with
 * any other character is kept as a string beside them.
 *
 * Reading an id back makes a string (a short-lived one); comparing one (`is`) makes none, so the
 * store index looks ids up without allocating.
 */

/** The characters an id keeps as a byte of the buffer: ASCII. */
const LAST_BYTE = 0x7f;
const decoder = new TextDecoder();

export class StoreIds implements Iterable<string> {
  #bytes = new Uint8Array(1024);
  #used = 0;
  /** Per store number, where its id ends in `#bytes` (it starts where the one before ends). */
  #ends = new Uint32Array(64);
  #length = 0;
  /** Ids with a character past ASCII, by number: nothing of theirs is in `#bytes`. */
  readonly #wide = new Map<number, string>();

  get length(): number {
    return this.#length;
  }

  /** Adds `id` as the next store number, and returns that number. */
  push(id: string): number {
    const n = this.#length;
    if (n === this.#ends.length) this.#ends = grown(this.#ends, n + 1);
    if (isNarrow(id)) {
      if (this.#used + id.length > this.#bytes.length) this.#bytes = grown(this.#bytes, this.#used + id.length);
      for (let i = 0; i < id.length; i++) this.#bytes[this.#used + i] = id.charCodeAt(i);
      this.#used += id.length;
    } else this.#wide.set(n, id);
    this.#ends[n] = this.#used;
    this.#length = n + 1;
    return n;
  }

  /** Store `n`'s id, or undefined past the last number. */
  get(n: number): string | undefined {
    if (!(n >= 0 && n < this.#length && Number.isInteger(n))) return undefined;
    const wide = this.#wide.size > 0 ? this.#wide.get(n) : undefined;
    if (wide !== undefined) return wide;
    return decoder.decode(this.#bytes.subarray(this.#start(n), this.#ends[n]));
  }

  /** Store `n`'s id is `id` (false past the last number). */
  is(n: number, id: string): boolean {
    if (!(n >= 0 && n < this.#length)) return false;
    const wide = this.#wide.size > 0 ? this.#wide.get(n) : undefined;
    if (wide !== undefined) return wide === id;
    const start = this.#start(n);
    if ((this.#ends[n] as number) - start !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (this.#bytes[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  clear(): void {
    this.#bytes = new Uint8Array(1024);
    this.#used = 0;
    this.#ends = new Uint32Array(64);
    this.#length = 0;
    this.#wide.clear();
  }

  /** The ids in number order. */
  *[Symbol.iterator](): Iterator<string> {
    for (let n = 0; n < this.#length; n++) yield this.get(n) as string;
  }

  /** The ids as an array, in number order (a snapshot of a checkpoint that lists them). */
  toArray(): string[] {
    return [...this];
  }

  #start(n: number): number {
    return n === 0 ? 0 : (this.#ends[n - 1] as number);
  }
}

function isNarrow(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > LAST_BYTE) return false;
  return true;
}

/** A copy at least `length` long, doubled so that adding id after id stays linear. */
function grown<A extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(array: A, length: number): A {
  const copy = new (array.constructor as new (size: number) => A)(Math.max(length, array.length * 2));
  copy.set(array);
  return copy;
}
