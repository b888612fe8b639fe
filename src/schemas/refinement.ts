import * as z from 'zod/mini';

/**
 * What a schema checks that its JSON Schema does not say to a reader (a callback; a lookahead
 * pattern), in words. The OpenAPI document adds it to the schema's description; zod's registry
 * keeps it beside the schema, so no one reads zod's definitions to find it.
 */
export const refinementNotes = z.registry<{ checks: string }>();

/**
 * `schema` with `refinement` (a `z.refine` or `z.superRefine`), and `checks`, what it checks in
 * words, registered for the OpenAPI document. Every refinement of src/schemas goes through here
 * (test/schemas/refinement.test.ts holds to it); a check JSON Schema can state (a regex, a length)
 * needs none of this.
 */
export function refined<S extends z.ZodMiniType>(
  schema: S,
  refinement: z.core.$ZodCheck<z.output<S>>,
  checks: string,
): S {
  const out = schema.check(refinement);
  refinementNotes.add(out, { checks });
  return out;
}
