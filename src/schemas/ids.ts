import * as z from 'zod/mini';

/**
 * Ids go into URL paths, and a URL parser collapses the dot-segments `.` and `..`:
 * `reservations.listForLocation('..')` would become `GET /partner/v1/reservations`, the bookings of
 * every store. Percent-encoding leaves dots alone, so such ids are refused before anything is sent.
 */
const DOT_SEGMENT = /^\.{1,2}$/;

/** `schema`, refusing the dot-segments `.` and `..`. */
export function pathId<S extends z.ZodMiniType<string>>(schema: S): S {
  return schema.check(
    z.refine(
      (id: string) => !DOT_SEGMENT.test(id),
      'must not be "." or ".." (a URL would drop or climb that path segment)',
    ),
  ) as S;
}

const opaqueId = () => pathId(z.string().check(z.minLength(1, 'must not be empty')));

/** A booking's `reservation_id`, as the service gave it. */
export const reservationId = opaqueId();
/** A sample batch's `batch_id`, as the service gave it. */
export const batchId = opaqueId();
