/**
 * A field of a response that this version of the SDK does not know, read by name.
 *
 * Responses keep every field the service sent, but their types list only the fields this version
 * knows, so that a misspelt field does not compile. A field the service added later is still
 * there at runtime: read it with this. A name the type already knows is a compile error (use the
 * typed field instead).
 *
 * @returns the field's value as sent (`unknown`: check it before use), or undefined when absent.
 * @example
 * ```ts
 * const booking = await client.reservations.acknowledge('res_123', 'acknowledged_self');
 * const tip = unknownField(booking, 'tip_cents');
 * if (typeof tip === 'number') console.log(tip);
 * ```
 */
export function unknownField<T extends object, const Name extends string>(
  record: T,
  name: Name & (Name extends keyof T ? never : Name),
): unknown {
  return Object.hasOwn(record, name) ? (record as Record<string, unknown>)[name] : undefined;
}
