/**
 * Each store's record (`status|hash[|m]`, stores.ts) by store number, in typed arrays: its status as
 * a small number, its 64-bit hash as two 32-bit words, `m` as a bit. Nine bytes a store where a
 * string of its own costs some forty: the family keeps one for every store, 100,000 of them in a
 * fleet, all different (the hash differs), so sharing equal strings would not help. A record not of
 * that form, or past the 127th distinct status, is kept as it is, beside them.
 */

const RECORD = /^([^|]+)\|([0-9a-f]{8})([0-9a-f]{8})(\|m)?$/;
/** The bit of a status slot that says the hours are missing (`|m`); the low 7 bits are the status, plus one. */
const MISSING = 0x80;
const MAX_STATUSES = 0x7f;

export class StoreRecordSlots implements Iterable<[number, string]> {
  /** Per store number: 0 for no record, else the index in `#statuses` plus one, with `MISSING`. */
  #status = new Uint8Array(0);
  #hashHigh = new Uint32Array(0);
  #hashLow = new Uint32Array(0);
  readonly #statuses: string[] = [];
  /** Records kept as strings: not of the usual form, or their status did not fit. */
  readonly #others = new Map<number, string>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(store: number): string | undefined {
    const other = this.#others.get(store);
    if (other !== undefined) return other;
    const slot = this.#status[store] ?? 0;
    if (slot === 0) return undefined;
    const hash = hex(this.#hashHigh[store] as number) + hex(this.#hashLow[store] as number);
    return `${this.#statuses[(slot & ~MISSING) - 1]}|${hash}${slot & MISSING ? '|m' : ''}`;
  }

  set(store: number, record: string): this {
    if (!Number.isInteger(store) || store < 0)
      throw new RangeError(`A store number is a whole number from 0; got ${store}.`);
    if (this.get(store) === undefined) this.#size++;
    this.#others.delete(store);
    const parts = RECORD.exec(record);
    const status = parts ? this.#statusNumber(parts[1] as string) : undefined;
    if (!parts || status === undefined) {
      // Read before the slots (`get`): what a slot still holds for this store no longer counts.
      this.#others.set(store, record);
      return this;
    }
    if (store >= this.#status.length) this.#grow(store + 1);
    this.#status[store] = (status + 1) | (parts[4] ? MISSING : 0);
    this.#hashHigh[store] = Number.parseInt(parts[2] as string, 16);
    this.#hashLow[store] = Number.parseInt(parts[3] as string, 16);
    return this;
  }

  clear(): void {
    this.#status = new Uint8Array(0);
    this.#hashHigh = new Uint32Array(0);
    this.#hashLow = new Uint32Array(0);
    this.#others.clear();
    this.#size = 0;
  }

  /** `[number, record]` in number order, as a `Map` of numbers iterates (so `Object.fromEntries` takes it). */
  *[Symbol.iterator](): Iterator<[number, string]> {
    for (let store = 0, end = this.#end(); store < end; store++) {
      const record = this.get(store);
      if (record !== undefined) yield [store, record];
    }
  }

  /** The records by store number as one object, for a snapshot: built by index, no pair per store (as `PerStore.byNumber`). */
  byNumber(): Record<number, string> {
    const out: Record<number, string> = {};
    for (let store = 0, end = this.#end(); store < end; store++) {
      const record = this.get(store);
      if (record !== undefined) out[store] = record;
    }
    return out;
  }

  /** One past the highest store number that may hold a record. */
  #end(): number {
    let end = this.#status.length;
    for (const store of this.#others.keys()) end = Math.max(end, store + 1);
    return end;
  }

  /** The status's number (from 0), or undefined when 127 others took every number. */
  #statusNumber(status: string): number | undefined {
    const known = this.#statuses.indexOf(status);
    if (known >= 0) return known;
    if (this.#statuses.length >= MAX_STATUSES) return undefined;
    return this.#statuses.push(status) - 1;
  }

  /** Room for `length` stores, doubled so that adding store after store stays linear. */
  #grow(length: number): void {
    const size = Math.max(length, this.#status.length * 2, 32);
    const status = new Uint8Array(size);
    status.set(this.#status);
    const high = new Uint32Array(size);
    high.set(this.#hashHigh);
    const low = new Uint32Array(size);
    low.set(this.#hashLow);
    this.#status = status;
    this.#hashHigh = high;
    this.#hashLow = low;
  }
}

const hex = (word: number) => word.toString(16).padStart(8, '0');
