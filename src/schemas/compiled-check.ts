import type { SchemaNode } from './schema-def.js';

/** Whether zod would accept a value (from JSON.parse) and return it unchanged. */
export type Check = (value: unknown) => boolean;

/**
 * The in-place check of `schema` as one generated function: each object a straight run of field
 * tests, each list a plain loop: a tenth of the time of the same check made of closures, which
 * costs one call and one array of fields per value (docs/performance.md has the figures).
 *
 * It covers exactly what the closures cover; the caller passes a schema the closures accept.
 * Returns undefined for any other schema, and where code cannot be generated (a runtime that
 * forbids `new Function`, such as an edge worker or a page under a strict CSP); the closures
 * serve there.
 */
export function generateCheck(schema: SchemaNode): Check | undefined {
  try {
    const gen = new Generator();
    const root = gen.fn(schema);
    // The source holds no input: names come from JSON.stringify, values sit in `sets`.
    const make = new Function('sets', 'hasOwn', `${gen.functions.join('\n')}\nreturn ${root};`) as (
      sets: ReadonlyArray<Set<unknown>>,
      hasOwn: typeof Object.hasOwn,
    ) => Check;
    return make(gen.sets, (o, k) => Object.hasOwn(o, k));
  } catch {
    return undefined;
  }
}

class Generator {
  readonly functions: string[] = [];
  readonly sets: Array<Set<unknown>> = [];

  /** A function name checking `schema` (objects, arrays, records), or a leaf test as a function. */
  fn(schema: SchemaNode): string {
    const name = `f${this.functions.length}`;
    this.functions.push(''); // reserve the slot: nested functions come after
    const def = schema._zod.def;
    let body: string;
    if (def.checks?.length) throw new TypeError('no generated check for a schema with checks');
    if (def.type === 'object') {
      // A loose object (zod's catchall `unknown`): fields it does not declare are kept as they are.
      if (def.catchall?._zod.def.type !== 'unknown') throw new TypeError('no generated check for a strict object');
      const lines = [
        'if (typeof o !== "object" || o === null || Array.isArray(o) || hasOwn(o, "__proto__")) return false;',
        'let v;',
      ];
      for (const [key, field] of Object.entries(def.shape ?? {}))
        lines.push(`v = o[${JSON.stringify(key)}]; if (!(${this.test(field, 'v')})) return false;`);
      body = `${lines.join('\n')}\nreturn true;`;
    } else if (def.type === 'array') {
      body =
        `if (!Array.isArray(o)) return false;\n` +
        `for (let i = 0; i < o.length; i++) { const v = o[i]; if (!(${this.test(def.element as SchemaNode, 'v')})) return false; }\n` +
        `return true;`;
    } else if (def.type === 'record') {
      const key = def.keyType?._zod.def;
      if (key?.type !== 'string' || key.checks?.length)
        throw new TypeError('no generated check for a record whose keys are not plain strings');
      body =
        'if (typeof o !== "object" || o === null || Array.isArray(o) || hasOwn(o, "__proto__")) return false;\n' +
        `for (const k of Object.keys(o)) { const v = o[k]; if (!(${this.test(def.valueType as SchemaNode, 'v')})) return false; }\nreturn true;`;
    } else {
      body = `return ${this.test(schema, 'o')};`;
    }
    this.functions[Number(name.slice(1))] = `function ${name}(o) {\n${body}\n}`;
    return name;
  }

  /** A boolean expression over the variable `v` (a plain identifier). */
  test(schema: SchemaNode, v: string): string {
    const def = schema._zod.def;
    if (def.checks?.length) throw new TypeError('no generated check for a schema with checks');
    switch (def.type) {
      case 'string':
        return `typeof ${v} === "string"`;
      case 'boolean':
        return `typeof ${v} === "boolean"`;
      case 'number':
        if (def.format === 'safeint') return `Number.isSafeInteger(${v})`;
        if (def.format !== undefined) throw new TypeError(`no generated check for a number of format ${def.format}`);
        return `(typeof ${v} === "number" && Number.isFinite(${v}))`;
      case 'unknown':
        return 'true';
      case 'enum':
        this.sets.push(new Set(Object.values(def.entries ?? {})));
        return `sets[${this.sets.length - 1}].has(${v})`;
      case 'nullable':
        return `(${v} === null || ${this.test(def.innerType as SchemaNode, v)})`;
      case 'optional':
        return `(${v} === undefined || ${this.test(def.innerType as SchemaNode, v)})`;
      case 'object':
      case 'array':
      case 'record':
        return `${this.fn(schema)}(${v})`;
      default:
        throw new TypeError(`no generated check for a ${def.type}`);
    }
  }
}
