import { randomInt } from 'node:crypto';

/** Seeded randomness: the sandbox is deterministic for a seed, so every draw goes through here. */

/** A 53-bit hash of a string (cyrb53): stable across runs and platforms. */
export function hashString(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** An exponentially distributed wait with the given mean (a Poisson process's gaps). */
  exponential(mean: number): number;
  /** `length` characters of [0-9A-Za-z]. */
  token(length: number): string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** mulberry32: small, fast and good enough for simulated traffic. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    chance: (probability) => next() < probability,
    exponential: (mean) => -Math.log(1 - next()) * mean,
    token: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += ALPHABET[int(0, ALPHABET.length - 1)];
      return out;
    },
  };
}

/** Tokens no one can predict (crypto randomness), for keys when no seed was asked for. */
export const unpredictable: Pick<Rng, 'token'> = {
  token: (length) => {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    return out;
  },
};

/** An independent stream for one named thing (a store, the key issuer), derived from the sandbox seed. */
export function streamFor(seed: number, name: string): Rng {
  return createRng(hashString(name, seed));
}
