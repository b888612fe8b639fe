import type * as z from 'zod/mini';
import { parseInput } from '../core/input.js';
import { batchId, reservationId } from '../schemas/ids.js';
import { locationId } from '../schemas/locations.js';

/** Each path parameter of the contract and what it must look like (no `.` or `..`: see schemas/ids.ts). */
const PATH_PARAMS: Record<string, z.ZodMiniType<string>> = {
  partner_location_id: locationId,
  reservation_id: reservationId,
  batch_id: batchId,
};

/** Refuse a path id the service could not be sent, with a `ValidationError` naming it; nothing is sent. */
export function checkPathParams(params: Record<string, string> | undefined): void {
  if (!params) return;
  for (const [name, value] of Object.entries(params)) {
    const schema = PATH_PARAMS[name];
    if (!schema) throw new Error(`No schema for the path parameter ${name}: add it to PATH_PARAMS`);
    parseInput(schema, value, name);
  }
}
