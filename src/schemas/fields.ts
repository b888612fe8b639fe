import * as z from 'zod/mini';
import type { $strict, $strip, $ZodShape } from 'zod/v4/core';

/**
 * The public types are interfaces derived from the schemas' shapes, so each field is written once
 * (with its one-line description, which the interfaces and the API reference inherit):
 *
 *   const reservationFields = { reservation_id: z.string(), … };
 *   export interface Reservation extends ResponseFields<typeof reservationFields> {}
 *   export const reservation: Schema<Reservation> = z.looseObject(reservationFields);
 *
 * The interface has no index signature, so a misspelt field does not compile; the schema stays
 * loose, so fields this version does not know are still kept at runtime (see `unknownField`).
 */

/** The fields a response shape declares, without the index signature of a loose object. */
export type ResponseFields<Shape extends $ZodShape> = z.output<z.ZodMiniObject<Shape, $strip>>;

/** The fields a request shape accepts, as a caller writes them. */
export type RequestFields<Shape extends $ZodShape> = z.input<z.ZodMiniObject<Shape, $strict>>;

/** A schema whose parsed value is `T` (a named interface, so hovers and errors show its name). */
export type Schema<T> = z.ZodMiniType<T, unknown>;

/** A request schema that accepts and returns `T`. */
export type InputSchema<T> = z.ZodMiniType<T, T>;

/** Make every field of a shape optional (the PATCH form of the enrollment fields), keeping each field's description. */
export function optionalFields<Shape extends $ZodShape>(
  shape: Shape,
): { [K in keyof Shape]: z.ZodMiniOptional<Shape[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof Shape]: z.ZodMiniOptional<Shape[K]>;
  };
}
