import type * as z from 'zod/mini';

/** One refused input: a dotted `field` path (`address.state`) and a sentence about it. */
export interface InputProblem {
  field: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** The parts of a zod schema's definition that say what it accepts. */
interface Def {
  type: string;
  format?: string;
  innerType?: Node;
  in?: Node;
  options?: readonly Node[];
  element?: Node;
  shape?: Record<string, Node>;
  valueType?: Node;
  entries?: Record<string, unknown>;
  values?: readonly unknown[];
}
interface Node {
  _zod: { def: Def };
}

/** Wrappers that accept what their inner schema accepts (plus `undefined`, a default, …). */
const WRAPPERS = new Set(['optional', 'nonoptional', 'default', 'prefault', 'readonly', 'catch', 'nullable']);

/**
 * The first problem zod found, in the service's words: a dotted field path and a message that
 * says what is wrong and what is allowed. zod/mini's own default message is only "Invalid input".
 * With the `schema` that was checked, a union (a filter taking one value or a list) is described
 * by what each of its forms accepts.
 */
export function describeIssue(issue: Issue, root?: string, input?: unknown, schema?: z.ZodMiniType): InputProblem {
  return describe(issue, [], root, input, schema as Node | undefined);
}

/**
 * `issue`, found by `schema` at `base` in `input` (the union branches' issues are relative to the
 * union, so `base` is where that union sits and `schema` is the branch).
 */
function describe(issue: Issue, base: Path, root: string | undefined, input: unknown, schema: Node | undefined): InputProblem {
  const at = [...base, ...issue.path];
  const path = [root, ...at.map(String)].filter((p) => p !== undefined && p !== '');
  const here = schema && schemaAt(schema, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const shape = here && unwrap(here)._zod.def.shape;
    const known = shape ? `; accepted: ${Object.keys(shape).join(', ')}` : '';
    return { field: [...path, key].join('.'), message: `${quote(key)} is not a recognised field${known}` };
  }
  const field = path.join('.') || '(body)';
  const actual = input === undefined ? issue.input : valueAt(input, at);
  if (issue.code === 'invalid_union' && unsendable(actual) === undefined) {
    const inner = innerProblem(issue, here);
    if (inner) return describe(inner.issue, at, root, input, inner.branch);
    return { field, message: `${field} ${unionText(issue, here, actual)}` };
  }
  return { field, message: `${field} ${unsendable(actual) ?? issueText(issue, actual)}` };
}

/**
 * The issue to report instead of a union's, when the value got into one of its branches as far as
 * a named field (an object branch whose field is wrong): that field is the one to name. A wrong
 * item in a list branch stays the union's, which names every form it takes.
 */
function innerProblem(issue: Extract<Issue, { code: 'invalid_union' }>, union: Node | undefined): { issue: Issue; branch: Node | undefined } | undefined {
  let best: { issue: Issue; index: number } | undefined;
  issue.errors.forEach((branch, index) => {
    for (const found of branch) {
      if (found.path.length > (best?.issue.path.length ?? 0) && found.path.some((p) => typeof p === 'string')) best = { issue: found, index };
    }
  });
  return best && { issue: best.issue, branch: union?._zod.def.options?.[best.index] };
}

/** "must be one of a, b, or a list of them; got "x"": every form the union takes, and the value at fault. */
function unionText(issue: Extract<Issue, { code: 'invalid_union' }>, union: Node | undefined, actual: unknown): string {
  const forms = (union && allowed(union)) ?? fromBranches(issue);
  const fault = culprit(issue, actual);
  const got = `${show(fault.value)}${fault.inList ? ' in the list' : ''}`;
  return `${forms ? `must be ${forms}` : 'has an unsupported shape'}; got ${got}`;
}

/** What each branch wanted at the union's own level, when the schema cannot say (it was not given). */
function fromBranches(issue: Extract<Issue, { code: 'invalid_union' }>): string | undefined {
  const forms = issue.errors.map((branch) => {
    const top = branch.find((i) => i.path.length === 0);
    if (top?.code === 'invalid_value') return oneOf(top.values);
    if (top?.code === 'invalid_type') return expectedText(top.expected);
    return undefined;
  });
  return forms.every((f) => f !== undefined) ? alternatives(forms as string[]) : undefined;
}

/** The value at fault: the wrong item when the value is a list that got into a list branch, else the value. */
function culprit(issue: Extract<Issue, { code: 'invalid_union' }>, actual: unknown): { value: unknown; inList: boolean } {
  const deepest = issue.errors.flat().reduce<Issue | undefined>((a, i) => (i.path.length > (a?.path.length ?? 0) ? i : a), undefined);
  return deepest ? { value: valueAt(actual, deepest.path), inList: true } : { value: actual, inList: false };
}

/** The schema that checks the value at `path` below `schema` (undefined where it cannot tell). */
function schemaAt(schema: Node, path: Path): Node | undefined {
  let node: Node | undefined = schema;
  for (const key of path) {
    node = node && unwrap(node);
    const def: Def | undefined = node?._zod.def;
    if (!def) return undefined;
    if (def.type === 'object') node = def.shape?.[String(key)];
    else if (def.type === 'array') node = def.element;
    else if (def.type === 'record') node = def.valueType;
    else return undefined;
  }
  return node;
}

function unwrap(node: Node): Node {
  let def = node._zod.def;
  while ((WRAPPERS.has(def.type) && def.innerType) || (def.type === 'pipe' && def.in)) {
    node = (def.innerType ?? def.in) as Node;
    def = node._zod.def;
  }
  return node;
}

/**
 * What `schema` accepts, in words ("one of pending, confirmed", "a list of …", "true or false"),
 * or undefined for shapes that take more than a phrase (objects, records).
 */
function allowed(schema: Node): string | undefined {
  const def = schema._zod.def;
  if (def.type === 'nullable' && def.innerType) {
    const inner = allowed(def.innerType);
    return inner && `${inner}, or null`;
  }
  if (WRAPPERS.has(def.type) && def.innerType) return allowed(def.innerType);
  if (def.type === 'pipe' && def.in) return allowed(def.in);
  switch (def.type) {
    case 'enum':
    case 'literal':
      return oneOf(choices(schema));
    case 'array': {
      const item = def.element && allowed(def.element);
      return item && `a list whose items are each ${item}`;
    }
    case 'union': {
      const options = def.options ?? [];
      // Every literal or enum value in one "one of …"; a list of the same values is "a list of them".
      const values = options.flatMap(choices);
      const rest = options.filter((o) => choices(o).length === 0);
      const forms = rest.map((o) => {
        const element = o._zod.def.type === 'array' ? o._zod.def.element : undefined;
        const listOfThem = values.length > 0 && element !== undefined && sameValues(choices(element), values);
        return listOfThem ? 'a list of them' : allowed(o);
      });
      if (forms.some((f) => f === undefined)) return undefined;
      return alternatives([...(values.length > 0 ? [oneOf(values)] : []), ...(forms as string[])]);
    }
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return expectedText(def.type === 'number' && def.format && /int/.test(def.format) ? 'int' : def.type);
    default:
      return undefined;
  }
}

/** The values an enum or literal takes (none for any other schema). */
function choices(schema: Node): unknown[] {
  const def = schema._zod.def;
  if (def.type === 'enum') return Object.values(def.entries ?? {});
  if (def.type === 'literal') return [...(def.values ?? [])];
  return [];
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/** "one of a, b, c" (a single value: just that value). */
function oneOf(values: readonly unknown[]): string {
  const shown = values.map(word);
  return shown.length === 1 ? (shown[0] as string) : `one of ${shown.join(', ')}`;
}

function alternatives(forms: readonly string[]): string {
  return forms.length <= 1 ? (forms[0] ?? '') : `${forms.slice(0, -1).join(', ')}, or ${forms.at(-1) as string}`;
}

/** An allowed value as written in a sentence: bare when it is a plain word (`no_show`), else as JSON. */
function word(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z0-9_.:-]+$/.test(value) ? value : String(JSON.stringify(value));
}

/** The value a caller passed, short enough for a message: strings quoted and cut at 40 characters. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  return article(typeof value);
}

/** The value at `path` in what the caller passed (zod's issues do not carry it). */
function valueAt(input: unknown, path: Path): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Values JSON cannot carry, named as what they are (zod would call a BigInt merely the wrong type). */
function unsendable(value: unknown): string | undefined {
  if (typeof value === 'bigint') return 'is a BigInt, which JSON cannot carry: pass a number';
  if (typeof value === 'number' && Number.isNaN(value)) return 'is NaN: pass a finite number';
  if (typeof value === 'number' && !Number.isFinite(value)) return `is ${value}: pass a finite number`;
  if (typeof value === 'symbol' || typeof value === 'function') return `is a ${typeof value}, which JSON cannot carry`;
  return undefined;
}

function issueText(issue: Issue, actual: unknown): string {
  // An enum's own message says what is allowed; the value given is added, as for any choice.
  if (issue.code === 'invalid_value') return `${custom(issue) ?? `must be ${oneOf(issue.values)}`}; got ${show(actual)}`;
  const own = custom(issue);
  if (own) return own;
  switch (issue.code) {
    case 'invalid_type':
      return actual === undefined ? 'is required' : `must be ${expectedText(issue.expected)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return 'is invalid';
  }
}

function custom(issue: Issue): string | undefined {
  return issue.message && issue.message !== 'Invalid input' ? issue.message : undefined;
}

function expectedText(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'boolean') return 'true or false';
  return article(expected);
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function quote(key: string): string {
  return JSON.stringify(key);
}

/** Check `value` against `schema`: the parsed value, or the first problem found. */
export function check<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  root?: string,
): { ok: true; value: z.infer<S> } | { ok: false; problem: InputProblem } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return {
    ok: false,
    problem: issue ? describeIssue(issue, root, value, schema) : { field: root ?? '(body)', message: 'is invalid' },
  };
}
