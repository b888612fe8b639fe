/**
 * A small rule language for the sandbox's input checks (independent of the SDK's zod schemas):
 * each rule takes a value and its dotted path and returns the value, or throws the first problem
 * as a 400 validation_error naming the field.
 */
import { validation } from '../api-error.js';

export type Rule<T> = (value: unknown, path: string) => T;

interface OptionalRule<T> extends Rule<T | undefined> {
  optional: true;
}

type Shape = Record<string, Rule<unknown>>;
type Out<S extends Shape> = { [K in keyof S as S[K] extends OptionalRule<unknown> ? never : K]: ReturnType<S[K]> } & {
  [K in keyof S as S[K] extends OptionalRule<unknown> ? K : never]?: Exclude<ReturnType<S[K]>, undefined>;
};

/** The name of the whole body in a `field`. */
export const BODY = '(body)';

function fail(path: string, message: string): never {
  throw validation(path || BODY, `${path || 'The request body'} ${message}.`);
}

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

export function string(
  checks: { min?: number; max?: number; pattern?: RegExp; says?: string; test?: (s: string) => boolean } = {},
): Rule<string> {
  return (value, path) => {
    if (typeof value !== 'string') fail(path, `must be a string, not ${describe(value)}`);
    if (checks.min !== undefined && value.length < checks.min)
      fail(path, checks.min === 1 ? 'must not be empty' : `must be at least ${checks.min} characters`);
    if (checks.max !== undefined && value.length > checks.max) fail(path, `must be at most ${checks.max} characters`);
    if ((checks.pattern && !checks.pattern.test(value)) || (checks.test && !checks.test(value)))
      fail(path, checks.says ?? 'is not in the expected form');
    return value;
  };
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER, says?: string): Rule<number> {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value))
      fail(path, `must be a whole number, not ${describe(value)}`);
    if (value < min || value > max)
      fail(
        path,
        says ?? (max === Number.MAX_SAFE_INTEGER ? `must be ${min} or more` : `must be between ${min} and ${max}`),
      );
    return value;
  };
}

export function oneOf<const T extends readonly string[]>(values: T): Rule<T[number]> {
  return (value, path) => {
    if (typeof value !== 'string' || !values.includes(value))
      fail(path, `must be ${values.map((v) => JSON.stringify(v)).join(' or ')}`);
    return value as T[number];
  };
}

export function arrayOf<T>(item: Rule<T>): Rule<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, `must be an array, not ${describe(value)}`);
    return value.map((v, i) => item(v, `${path}.${i}`));
  };
}

function plainObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(path, `must be an object, not ${describe(value)}`);
  return value as Record<string, unknown>;
}

/** Any keys, each value checked by `item`. */
export function recordOf<T>(item: Rule<T>): Rule<Record<string, T>> {
  return (value, path) => {
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(plainObject(value, path))) out[k] = item(v, join(path, k));
    return out;
  };
}

/** Exactly these keys: an unknown one is refused (the service's specification: never silently ignored). */
export function object<S extends Shape>(shape: S): Rule<Out<S>> {
  return (value, path) => {
    const input = plainObject(value, path);
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(shape, key))
        throw validation(
          join(path, key),
          `${JSON.stringify(key)} is not a recognised field${path ? ` of ${path}` : ''}.`,
        );
    }
    const out: Record<string, unknown> = {};
    for (const [key, rule] of Object.entries(shape)) {
      const v = input[key];
      if (v === undefined) {
        if ('optional' in rule) continue;
        fail(join(path, key), 'is required');
      }
      out[key] = rule(v, join(path, key));
    }
    return out as Out<S>;
  };
}

export function optional<T>(rule: Rule<T>): OptionalRule<T> {
  return Object.assign((value: unknown, path: string) => (value === undefined ? undefined : rule(value, path)), {
    optional: true as const,
  });
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function boolean(): Rule<boolean> {
  return (value, path) => {
    if (typeof value !== 'boolean') fail(path, `must be true or false, not ${describe(value)}`);
    return value;
  };
}

/** A number (not necessarily whole) in [min, max]. */
export function number(min: number, max: number): Rule<number> {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, `must be a number, not ${describe(value)}`);
    if (value < min || value > max) fail(path, `must be between ${min} and ${max}`);
    return value;
  };
}

/** The first rule that accepts the value; the last one's problem otherwise. */
export function either<A, B>(first: Rule<A>, second: Rule<B>): Rule<A | B> {
  return (value, path) => {
    try {
      return first(value, path);
    } catch {
      return second(value, path);
    }
  };
}
