/** The slice of JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) the generator reads and writes. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  $ref?: string;
  [keyword: string]: unknown;
}

/** Every subschema of `schema` (itself included), depth first: to annotate or tighten in place. */
export function* subschemas(schema: JsonSchema): Generator<JsonSchema> {
  yield schema;
  for (const inner of Object.values(schema.properties ?? {})) yield* subschemas(inner);
  if (typeof schema.additionalProperties === 'object') yield* subschemas(schema.additionalProperties);
  if (schema.items) yield* subschemas(schema.items);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) yield* subschemas(branch);
}
