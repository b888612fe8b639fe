/**
 * A failure that leaves open whether the service enrolled the store (its answer was lost after it
 * may have acted), settled by asking again: enrolling is idempotent, so the store, if it is there
 * with the row's name and address, is the row's.
 */
import {
  NotFoundError,
  PartnerError,
  type EnrollLocationBody,
  type Location,
  type RequestOptions,
  type WithResponse,
} from '../index.js';

/** Read one store: `client.locations.get(id).withResponse()`. */
export type ReadOne = (partnerLocationId: string, options: RequestOptions) => Promise<WithResponse<Location>>;

/** What the read found: the store, no store, or nothing known (the read failed too). */
export type ReadBack = { found: WithResponse<Location> } | { missing: NotFoundError } | { failed: PartnerError };

export async function readBack(read: ReadOne, partnerLocationId: string, signal: AbortSignal): Promise<ReadBack> {
  try {
    return { found: await read(partnerLocationId, { signal }) };
  } catch (error) {
    if (error instanceof NotFoundError) return { missing: error };
    if (error instanceof PartnerError) return { failed: error };
    throw error;
  }
}

const ADDRESS = ['line1', 'city', 'state', 'postal_code', 'country'] as const;

/** The store has the row's name and address, what the service compares to answer 200 (same store) or 409. */
export function isTheRowsStore(store: Location, row: EnrollLocationBody): boolean {
  return store.name === row.name && ADDRESS.every((key) => store.address?.[key] === row.address?.[key]);
}
