import * as z from 'zod/mini';
import { refinementNotes } from './refinement.js';

/**
 * Ids go into URL paths, and a URL parser collapses the dot-segments `.` and `..`:
 * `reservations.listForLocation('..')` would become `GET /partner/v1/reservations`, the bookings of
 * every store. Percent-encoding leaves dots alone, so such ids are refused before anything is sent.
 * A regex (zod's own check, no callback), which the OpenAPI document states as a `pattern` and,
 * for a reader, in words.
 */
const NOT_A_DOT_SEGMENT = /^(?!\.{1,2}$)/;
const DOT_SEGMENT_MESSAGE = 'must not be "." or ".." (a URL would drop or climb that path segment)';

/** `schema`, refusing the dot-segments `.` and `..`. */
export function pathId<S extends z.ZodMiniType<string>>(schema: S): S {
  const id = schema.check(z.regex(NOT_A_DOT_SEGMENT, DOT_SEGMENT_MESSAGE)) as S;
  refinementNotes.add(id, { checks: DOT_SEGMENT_MESSAGE });
  return id;
}

const opaqueId = () => pathId(z.string().check(z.minLength(1, 'must not be empty')));

/** A booking's `reservation_id`, as the service gave it. */
export const reservationId = opaqueId();
/** A sample batch's `batch_id`, as the service gave it. */
export const batchId = opaqueId();
