import * as z from 'zod/mini';
import type { JsonSchema } from './json-schema.js';

/** Where the document keeps its named schemas. */
export const SCHEMA_REF = '#/components/schemas/';

/** A zod schema's check, as zod keeps it (`schema._zod.def.checks`). */
interface CheckDef {
  _zod: { def: { check: string; error?: (issue: unknown) => unknown } };
}

/**
 * What a refinement checks, for a schema whose check JSON Schema cannot say (`z.refine`,
 * `z.superRefine`): the refinement's own message where it has one, else the text given here.
 */
export type RefinementNotes = ReadonlyMap<z.ZodMiniType, string>;

/**
 * JSON Schemas (draft 2020-12) of named zod schemas, as `input` (what a request may send: strict
 * objects, `additionalProperties: false`) or `output` (what a response holds: loose objects, which
 * a client must accept with fields it does not know). Schemas named in `named` become
 * `#/components/schemas/<name>` and are referenced wherever they occur.
 */
export function toComponents(
  named: ReadonlyMap<z.ZodMiniType, string>,
  io: 'input' | 'output',
  notes: RefinementNotes,
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    uri: (id) => `${SCHEMA_REF}${id}`,
    override: ({ zodSchema, jsonSchema }) =>
      describeRefinements(zodSchema as unknown as z.ZodMiniType, jsonSchema as JsonSchema, notes),
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutIdentity(schema as JsonSchema)]));
}

/** One schema on its own (a query's fields, a path parameter), named schemas inside it referenced. */
export function toSchema(schema: z.ZodMiniType, io: 'input' | 'output', notes: RefinementNotes): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) =>
      describeRefinements(zodSchema as unknown as z.ZodMiniType, jsonSchema as JsonSchema, notes),
  });
  return withoutIdentity(json as JsonSchema);
}

/** A refinement JSON Schema cannot express, said in `description` so a reader in any language knows it. */
function describeRefinements(schema: z.ZodMiniType, json: JsonSchema, notes: RefinementNotes): void {
  const checks = ((schema as unknown as { _zod: { def: { checks?: CheckDef[] } } })._zod.def.checks ?? []).filter(
    (c) => c._zod.def.check === 'custom',
  );
  if (checks.length === 0) return;
  const said = checks.map((c) => c._zod.def.error?.({})).filter((m): m is string => typeof m === 'string');
  const note = notes.get(schema);
  if (note) said.push(note);
  if (said.length !== checks.length)
    throw new Error(
      `A refinement without a message or a note (add one to the generator's refinement notes): ${JSON.stringify(json)}`,
    );
  const text = `Also checked: ${said.join('; ')}.`;
  json.description = json.description ? `${json.description} ${text}` : text;
}

function withoutIdentity(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}
