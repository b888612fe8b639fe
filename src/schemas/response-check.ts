import type * as z from 'zod/mini';
import { generateCheck, type Check } from './compiled-check.js';
import type { SchemaDef, SchemaNode } from './schema-def.js';

/** Where a response schema (made by `looseObject`) keeps its check, made once with the schema. */
export const IN_PLACE = Symbol('in-place check');

/**
 * Parse a response body (the value JSON.parse gave) with its schema. zod builds a new object for
 * every object it parses, a copy of what JSON.parse just built; the response schemas transform
 * nothing, so a value zod accepts comes out equal to what went in. A check compiled with the
 * schema tells whether zod would accept the value as it is: then the value is used as it is (a
 * page of 200 bookings: hundreds of objects less; docs/performance.md). Otherwise, and for any schema this check
 * does not cover, zod parses as always and reports the problem.
 */
export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
): z.core.util.SafeParseResult<z.output<S>> {
  const check = (schema as { [IN_PLACE]?: Check | undefined })[IN_PLACE];
  if (check?.(value)) return { success: true, data: value as z.output<S> };
  return schema.safeParse(value);
}

/**
 * The check for `schema`, or undefined where it cannot tell (checks, formats, transforms, other
 * types). It is generated as one function on its first use (compiled-check.ts), so importing the
 * SDK compiles nothing; where code cannot be generated, the closures below check instead.
 */
export function compile(schema: SchemaNode): Check | undefined {
  const closures = compileClosures(schema);
  if (!closures) return undefined;
  let check: Check | undefined;
  return (value) => (check ??= generateCheck(schema) ?? closures)(value);
}

/** The same check made of closures, one per schema node. */
export function compileClosures(schema: SchemaNode): Check | undefined {
  const def = schema._zod.def;
  if (def.checks?.length) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      if (def.format === 'safeint') return (v) => Number.isSafeInteger(v);
      return def.format === undefined ? (v) => typeof v === 'number' && Number.isFinite(v) : undefined;
    case 'unknown':
      return () => true;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'nullable': {
      const inner = def.innerType && compileClosures(def.innerType);
      return inner && ((v) => v === null || inner(v));
    }
    case 'optional': {
      const inner = def.innerType && compileClosures(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'array': {
      const element = def.element && compileClosures(def.element);
      return (
        element &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          // Every index, as zod reads them (\`every\` would skip the holes of a sparse array).
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        })
      );
    }
    case 'record': {
      const value = def.valueType && compileClosures(def.valueType);
      if (!value || def.keyType?._zod.def.type !== 'string' || def.keyType._zod.def.checks?.length) return undefined;
      return (v) => isRecord(v) && Object.values(v).every(value);
    }
    case 'object':
      return compileObject(def);
    default:
      return undefined;
  }
}

/** A loose object: every declared field checked; the others kept as they are (zod's catchall `unknown`). */
function compileObject(def: SchemaDef): Check | undefined {
  if (def.catchall?._zod.def.type !== 'unknown' || !def.shape) return undefined;
  const fields: Array<[string, Check]> = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const check = compileClosures(field);
    if (!check) return undefined;
    fields.push([key, check]);
  }
  return (v) => {
    if (!isRecord(v)) return false;
    for (const [key, check] of fields) if (!check((v as Record<string, unknown>)[key])) return false;
    return true;
  };
}

/**
 * A JSON object. One with an own `__proto__` key is left to zod, which does not copy that key
 * (`Object.assign` from it would set a prototype).
 */
function isRecord(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
}
