/**
 * The parts of a zod schema's definition (`schema._zod.def`) that the SDK reads to say what a
 * schema accepts: response-check.ts compiles a check from them, validate.ts words a refusal from them.
 */
export interface SchemaDef {
  type: string;
  checks?: unknown[];
  format?: string;
  innerType?: SchemaNode;
  options?: readonly SchemaNode[];
  element?: SchemaNode;
  shape?: Record<string, SchemaNode>;
  catchall?: SchemaNode;
  keyType?: SchemaNode;
  valueType?: SchemaNode;
  entries?: Record<string, unknown>;
  values?: readonly unknown[];
}

/** A zod schema, seen through its definition. */
export interface SchemaNode {
  _zod: { def: SchemaDef };
}
