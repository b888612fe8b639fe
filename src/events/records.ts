/**
 * The records a checkpoint's journal holds, each the new value of one thing. A family's own
 * records are written and checked by its finder's codec (each family in families.ts); the rest are the
 * state's: `s` a store (numbered in the order added), `t` the end of the booking list, `f` when
 * the last full reconciliation started, `m` the billing month, `r` the service's history went back,
 * `p` the times saved with it are provisional.
 */
import type { FamilyRecord, RecordOf } from './family.js';
import type { FAMILIES } from './families.js';

export type StateRecord =
  | ['s', string]
  | RecordOf<(typeof FAMILIES)[number]>
  | ['t', string | null, number]
  | ['f', number]
  | ['m', string]
  /** The service's history went back (a sandbox reset): everything remembered is forgotten. */
  | ['r', number]
  /** The times saved with it were stamped on a service time no answers had confirmed (`WatchState.provisional`). */
  | ['p'];

/** A check of one value of a record or snapshot. */
export type Check = (value: unknown) => boolean;

/** How a family writes its records and checks those it reads back. */
export interface RecordCodec<R extends FamilyRecord> {
  readonly kind: R[0];
  /** The checks of the values after the kind, in order. */
  readonly checks: Check[];
  /** The check of each value a record may carry after those, if it may carry more. */
  readonly more?: Check;
}

export const id: Check = (v) => typeof v === 'string' && v !== '';
export const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const every = (values: unknown[], check: Check) => values.every(check);
/** A snapshot field keyed by store number, each value passing `check`. */
export const byStoreNumber =
  (check: Check): Check =>
  (v) =>
    isObject(v) && every(Object.keys(v), (k) => /^(0|[1-9]\d*)$/.test(k as string)) && every(Object.values(v), check);

// A known value packs to one letter; a value this version does not know is kept whole (escaped).
// Own keys only: a value named like a member of Object.prototype (`toString`) is not a known one.
export const packValue = (value: string, codes: Record<string, string>): string =>
  Object.hasOwn(codes, value) ? (codes[value] as string) : `~${encodeURIComponent(value)}`;
export const unpackValue = (packed: string, names: Record<string, string>): string =>
  packed.startsWith('~')
    ? decodeURIComponent(packed.slice(1))
    : Object.hasOwn(names, packed)
      ? (names[packed] as string)
      : packed;
export const invert = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k])) as Record<string, string>;
/** Every `~`-escaped part of `packed` (split on `|`) decodes. */
export const decodableParts = (packed: string): boolean =>
  packed.split('|').every((part) => {
    if (!part.startsWith('~')) return true;
    try {
      decodeURIComponent(part.slice(1));
      return true;
    } catch {
      return false;
    }
  });
