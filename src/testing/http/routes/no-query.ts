import * as z from 'zod/mini';
import { readQuery } from '../query.js';

const none = z.strictObject({});

/** Endpoints without query parameters refuse any (spec §7: never silently ignored). */
export function noQuery(query: URLSearchParams): void {
  readQuery(query, {}, none);
}
