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
