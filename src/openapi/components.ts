import * as z from 'zod/mini';
import { refinementNotes } from '../schemas/refinement.js';
import type { JsonSchema } from './json-schema.js';

/** Where the document keeps its named schemas. */
export const SCHEMA_REF = '#/components/schemas/';

/**
 * JSON Schemas (draft 2020-12) of named zod schemas, as `input` (what a request may send: strict
 * objects, `additionalProperties: false`) or `output` (what a response holds: loose objects, which
 * a client must accept with fields it does not know). Schemas named in `named` become
 * `#/components/schemas/<name>` and are referenced wherever they occur.
 */
export function toComponents(
  named: ReadonlyMap<z.ZodMiniType, string>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    uri: (id) => `${SCHEMA_REF}${id}`,
    override: ({ zodSchema, jsonSchema }) => describeRefinement(zodSchema, jsonSchema as JsonSchema),
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutIdentity(schema as JsonSchema)]));
}

/** One schema on its own (a query's fields, a path parameter), named schemas inside it referenced. */
export function toSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => describeRefinement(zodSchema, jsonSchema as JsonSchema),
  });
  return withoutIdentity(json as JsonSchema);
}

/** A refinement JSON Schema cannot express, said in `description` so a reader in any language knows it. */
function describeRefinement(schema: z.core.$ZodType, json: JsonSchema): void {
  const checks = refinementNotes.get(schema)?.checks;
  if (!checks) return;
  const text = `Also checked: ${checks}.`;
  json.description = json.description ? `${json.description} ${text}` : text;
}

function withoutIdentity(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}
