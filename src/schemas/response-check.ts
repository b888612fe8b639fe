import * as z from 'zod/mini';
import { refinementNotes } from './refinement.js';

/** Whether zod would accept a value (from JSON.parse) and return it unchanged. */
type Check = (value: unknown) => boolean;

/** Each response schema's check, generated on its first response; `null` where there is none. */
const checks = new WeakMap<z.ZodMiniType, Check | null>();

/**
 * Parse a response body (the value JSON.parse gave) with its schema. zod builds a new object for
 * every object it parses, a copy of what JSON.parse just built (about half a millisecond of CPU for
 * a page of 200 bookings, as much as JSON.parse itself); the response schemas transform nothing, so
 * a value zod accepts comes out equal to what went in. A check generated from the schema's JSON
 * Schema (zod's public form of it) tells whether zod would accept the value as it is: then the
 * value is used as it is. Otherwise, and for any schema the check does not cover, zod parses as
 * always and reports the problem.
 */
export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
): z.core.util.SafeParseResult<z.output<S>> {
  let check = checks.get(schema);
  if (check === undefined) {
    check = generateCheck(schema) ?? null;
    checks.set(schema, check);
  }
  if (check?.(value)) return { success: true, data: value as z.output<S> };
  return schema.safeParse(value);
}

/** A JSON Schema node, as `z.toJSONSchema` writes it. */
type Node = { [keyword: string]: unknown };

/** Marks a node whose zod schema has a check JSON Schema does not state (src/schemas/refinement.ts). */
const REFINED = 'x-crp-refined';
/** Keywords that say nothing about what is accepted. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment']);

/**
 * The check of `schema` as one generated function: each object a straight run of field tests,
 * each list a plain loop. Undefined for a schema it cannot tell exactly (any keyword beyond types,
 * enums, loose objects, string-keyed records, lists and `X or null`: checks, defaults, strict
 * objects, unions), for one JSON Schema cannot express (a transform), and where code cannot be
 * generated (a runtime that forbids `new Function`, such as an edge worker): zod parses there.
 */
export function generateCheck(schema: z.ZodMiniType): Check | undefined {
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      unrepresentable: 'throw',
      override: ({ zodSchema, jsonSchema }) => {
        if (refinementNotes.has(zodSchema)) (jsonSchema as Node)[REFINED] = true;
      },
    }) as Node;
    const { $schema: _, ...root } = json;
    const gen = new Generator();
    const name = gen.fn(root);
    // The source holds no input: names come from JSON.stringify, values sit in `sets`.
    const make = new Function('sets', 'hasOwn', `${gen.functions.join('\n')}\nreturn ${name};`) as (
      sets: ReadonlyArray<Set<unknown>>,
      hasOwn: typeof Object.hasOwn,
    ) => Check;
    return make(gen.sets, (o, k) => Object.hasOwn(o, k));
  } catch {
    return undefined;
  }
}

/** The node's keywords that constrain a value; throws if any is outside `allowed`. */
function keywords(node: Node, ...allowed: string[]): void {
  for (const key of Object.keys(node))
    if (!ANNOTATIONS.has(key) && !allowed.includes(key)) throw new TypeError(`no generated check for ${key}`);
}

const isEmpty = (node: unknown) =>
  typeof node === 'object' && node !== null && Object.keys(node).filter((k) => !ANNOTATIONS.has(k)).length === 0;

class Generator {
  readonly functions: string[] = [];
  readonly sets: Array<Set<unknown>> = [];

  /** A function name checking `node` (objects, arrays, records), or a leaf test as a function. */
  fn(node: Node): string {
    const name = `f${this.functions.length}`;
    this.functions.push(''); // reserve the slot: nested functions come after
    const object =
      'if (typeof o !== "object" || o === null || Array.isArray(o) || hasOwn(o, "__proto__")) return false;';
    let body: string;
    if (node.type === 'object' && node.propertyNames !== undefined) {
      keywords(node, 'type', 'propertyNames', 'additionalProperties');
      const keys = node.propertyNames as Node;
      if (keys.type !== 'string' || Object.keys(keys).length !== 1)
        throw new TypeError('no generated check for a record whose keys are not plain strings');
      const each = this.test(node.additionalProperties as Node, 'v');
      body = `${object}\nfor (const k of Object.keys(o)) { const v = o[k]; if (!(${each})) return false; }\nreturn true;`;
    } else if (node.type === 'object') {
      keywords(node, 'type', 'properties', 'required', 'additionalProperties');
      // A loose object (fields it does not declare are kept as they are); a strict or stripping one is left to zod.
      if (!isEmpty(node.additionalProperties))
        throw new TypeError('no generated check for an object that is not loose');
      const required = new Set((node.required as string[] | undefined) ?? []);
      const lines = [object, 'let v;'];
      for (const [key, field] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) {
        const test = this.test(field, 'v');
        lines.push(
          `v = o[${JSON.stringify(key)}]; if (!(${required.has(key) ? test : `v === undefined || ${test}`})) return false;`,
        );
      }
      body = `${lines.join('\n')}\nreturn true;`;
    } else if (node.type === 'array') {
      keywords(node, 'type', 'items');
      // Every index, as zod reads them (`every` would skip the holes of a sparse array).
      body =
        'if (!Array.isArray(o)) return false;\n' +
        `for (let i = 0; i < o.length; i++) { const v = o[i]; if (!(${this.test(node.items as Node, 'v')})) return false; }\n` +
        'return true;';
    } else {
      body = `return ${this.test(node, 'o')};`;
    }
    this.functions[Number(name.slice(1))] = `function ${name}(o) {\n${body}\n}`;
    return name;
  }

  /** A boolean expression over the variable `v` (a plain identifier). */
  test(node: Node, v: string): string {
    if (isEmpty(node)) return 'true';
    if (node.enum !== undefined) {
      keywords(node, 'type', 'enum');
      this.sets.push(new Set(node.enum as unknown[]));
      return `sets[${this.sets.length - 1}].has(${v})`;
    }
    if (node.anyOf !== undefined) {
      keywords(node, 'anyOf');
      const [inner, nil, ...more] = node.anyOf as Node[];
      if (!inner || more.length > 0 || nil?.type !== 'null' || Object.keys(nil).length !== 1)
        throw new TypeError('no generated check for a union');
      return `(${v} === null || ${this.test(inner, v)})`;
    }
    if (Array.isArray(node.type)) {
      // `X or null` of a plain type: `{ "type": ["string", "null"] }`.
      keywords(node, 'type');
      return `(${node.type.map((type: unknown) => this.test({ type }, v)).join(' || ')})`;
    }
    switch (node.type) {
      case 'string':
      case 'boolean':
        keywords(node, 'type');
        return `typeof ${v} === "${node.type}"`;
      case 'number':
        keywords(node, 'type');
        return `(typeof ${v} === "number" && Number.isFinite(${v}))`;
      case 'integer':
        keywords(node, 'type', 'minimum', 'maximum');
        if (node.minimum !== Number.MIN_SAFE_INTEGER || node.maximum !== Number.MAX_SAFE_INTEGER)
          throw new TypeError('no generated check for an integer of other bounds');
        return `Number.isSafeInteger(${v})`;
      case 'null':
        keywords(node, 'type');
        return `${v} === null`;
      case 'object':
      case 'array':
        return `${this.fn(node)}(${v})`;
      default:
        throw new TypeError(`no generated check for ${JSON.stringify(node)}`);
    }
  }
}
