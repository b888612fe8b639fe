import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

/** One answer of the sandbox, as recorded: the route template asked for, status, headers and body. */
export interface Recorded {
  method: string;
  /** The path template of the document, e.g. `/partner/v1/locations/{partner_location_id}`. */
  template: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Checks answers against the OpenAPI document with ajv (draft 2020-12), strictly: every object of
 * the document's schemas that lets unknown fields through (the service's loose response objects)
 * is closed with `additionalProperties: false` here, so a field the sandbox sends that the document
 * lacks is an error, as is a required field it leaves out, a status the operation does not list,
 * and a header the response declares `required`.
 */
export class ResponseChecker {
  readonly #document: Json;
  readonly #defs: Json;
  readonly #ajv = new Ajv2020({ strict: true, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    this.#document = document;
    addFormats(this.#ajv);
    const components = document.components as { schemas: Json };
    this.#defs = closed(rewriteRefs(components.schemas)) as Json;
  }

  /** What is wrong with `answer` by the document; empty when nothing is. */
  problems(answer: Recorded): string[] {
    const where = `${answer.method} ${answer.template} → ${answer.status}`;
    const operation = (this.#document.paths as Record<string, Record<string, Json> | undefined>)[answer.template]?.[
      answer.method.toLowerCase()
    ];
    if (!operation) return [`${where}: the document has no such operation`];
    const listed = (operation.responses as Record<string, Json>)[String(answer.status)];
    if (!listed) return [`${where}: the document does not list this status for the operation`];
    const response = this.#resolve(listed);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      if (this.#resolve(header).required === true && answer.headers.get(name) === null)
        problems.push(`${where}: header ${name} missing`);
    }
    const schema = ((response.content as Record<string, Json> | undefined)?.['application/json'] as Json | undefined)
      ?.schema;
    if (!schema) return [...problems, `${where}: the document gives no JSON body`];
    const validate = this.#validator(JSON.stringify(schema));
    if (!validate(answer.body)) {
      problems.push(
        `${where}: ${this.#ajv.errorsText(validate.errors, { separator: '; ' })}\n  body: ${JSON.stringify(answer.body).slice(0, 600)}`,
      );
    }
    return problems;
  }

  #resolve(node: Json): Json {
    const ref = node.$ref as string | undefined;
    if (!ref) return node;
    const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
    return this.#resolve(
      ((this.#document.components as Record<string, Json>)[kind as string] as Json)[name as string] as Json,
    );
  }

  #validator(schemaText: string): ValidateFunction {
    let validate = this.#compiled.get(schemaText);
    if (!validate) {
      validate = this.#ajv.compile({ ...(closed(rewriteRefs(JSON.parse(schemaText))) as Json), $defs: this.#defs });
      this.#compiled.set(schemaText, validate);
    }
    return validate;
  }
}

/** `#/components/schemas/X` → `#/$defs/X`, so a schema compiles on its own with the components beside it. */
function rewriteRefs(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
}

/** Every open object (`additionalProperties: {}` or true) closed: the test's strictness. */
function closed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closed);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    const open =
      key === 'additionalProperties' &&
      (inner === true || (typeof inner === 'object' && inner !== null && Object.keys(inner).length === 0));
    out[key] = open
      ? false
      : key === 'properties' || key === '$defs'
        ? Object.fromEntries(Object.entries(inner as Json).map(([k, v]) => [k, closed(v)]))
        : closed(inner);
  }
  return out;
}
