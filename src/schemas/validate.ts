import * as z from 'zod/mini';

/** One refused input: a dotted `field` path (`address.state`) and a sentence about it. */
export interface InputProblem {
  field: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type UnionIssue = Extract<Issue, { code: 'invalid_union' }>;
type Path = readonly PropertyKey[];

/**
 * What a schema accepts, as zod states it publicly: its JSON Schema (`z.toJSONSchema`, the input
 * side), read to word a refusal. Only the keywords read here are listed.
 */
interface Form {
  type?: string | string[];
  properties?: Record<string, Form>;
  additionalProperties?: boolean | Form;
  items?: Form;
  anyOf?: Form[];
  enum?: unknown[];
  const?: unknown;
}

/** Each schema's form, made on its first refusal: a valid call never makes one. */
const forms = new WeakMap<z.ZodMiniType, Form | undefined>();

function formOf(schema: z.ZodMiniType): Form | undefined {
  if (!forms.has(schema)) {
    let form: Form | undefined;
    try {
      // What JSON Schema cannot state (a date, a callback) comes out as `{}`: a form with no words.
      form = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Form;
    } catch {
      form = undefined;
    }
    forms.set(schema, form);
  }
  return forms.get(schema);
}

/** Check `value` against `schema`: the parsed value, or the first problem found. */
export function check<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  root?: string,
): { ok: true; value: z.infer<S> } | { ok: false; problem: InputProblem } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0] as Issue;
  return { ok: false, problem: describe(issue, [], root, value, formOf(schema)) };
}

/**
 * The problem `issue` names, in the service's words: a dotted field path and a message that says
 * what is wrong and what is allowed (zod/mini's own default message is only "Invalid input").
 * `form` found the issue at `base` in `input`: a union's branch issues are relative to the union,
 * so for those `base` is where the union sits and `form` is the branch.
 */
function describe(
  issue: Issue,
  base: Path,
  root: string | undefined,
  input: unknown,
  form: Form | undefined,
): InputProblem {
  const at = [...base, ...issue.path];
  const path = [root, ...at.map(String)].filter((p) => p !== undefined && p !== '');
  const here = form && formAt(form, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const fields = here && withoutNull(here).properties;
    const known = fields ? `; accepted: ${Object.keys(fields).join(', ')}` : '';
    return { field: [...path, key].join('.'), message: `${quote(key)} is not a recognised field${known}` };
  }
  const field = path.join('.') || '(body)';
  const actual = valueAt(input, at);
  const cannot = unsendable(actual);
  if (cannot) return { field, message: `${field} ${cannot}` };
  if (issue.code === 'invalid_union') {
    const inner = innerProblem(issue, here);
    if (inner) return describe(inner.issue, at, root, input, inner.branch);
    return { field, message: `${field} ${unionText(issue, here, actual)}` };
  }
  return { field, message: `${field} ${issueText(issue, actual)}` };
}

/** The union's issue is really about a field inside one of its object branches. */
function insideObject(issue: Issue): boolean {
  return issue.path.some((p) => typeof p === 'string');
}

/**
 * The issue to report instead of a union's, when the value got into one of its object branches:
 * the field at fault there is the one to name. A wrong item in a list branch stays the union's,
 * which names every form it takes. Where several object branches refuse the same field's value
 * (`kind` is neither `circle` nor `square`), their values are named together.
 */
function innerProblem(
  issue: UnionIssue,
  union: Form | undefined,
): { issue: Issue; branch: Form | undefined } | undefined {
  const named = issue.errors.flatMap((branch, index) => {
    const found = branch.find(insideObject);
    return found ? [{ index, found }] : [];
  });
  const depth = Math.max(...named.map(({ found }) => found.path.length));
  const deepest = named.filter(({ found }) => found.path.length === depth);
  const first = deepest[0];
  if (!first) return undefined;
  const branch = union && unionOf(union)?.[first.index];
  if (first.found.code !== 'invalid_value') return { issue: first.found, branch };
  const at = first.found.path.join('.');
  const values = deepest.flatMap(({ found }) =>
    found.code === 'invalid_value' && found.path.join('.') === at ? found.values : [],
  );
  return { issue: { ...first.found, values: [...new Set(values)], message: '' }, branch };
}

/** "must be one of a, b, or a list of them; got "x"": every form the union takes, and the value at fault. */
function unionText(issue: UnionIssue, union: Form | undefined, actual: unknown): string {
  const words = union && allowed(union);
  // The wrong item, when a list got into a list branch; else the value itself.
  const deepest = issue.errors.flat().find((i) => i.path.length > 0);
  const got = deepest ? `${show(valueAt(actual, deepest.path))} in the list` : show(actual);
  return `${words ? `must be ${words}` : 'has an unsupported shape'}; got ${got}`;
}

/** The form of the value at `path` below `form` (through unions: the first branch with that path). */
function formAt(form: Form, path: Path): Form | undefined {
  if (path.length === 0) return form;
  if (form.anyOf) {
    for (const option of form.anyOf) {
      const found = formAt(option, path);
      if (found) return found;
    }
    return undefined;
  }
  const [key, ...rest] = path;
  const next =
    form.type === 'object'
      ? (form.properties?.[String(key)] ??
        (typeof form.additionalProperties === 'object' && !form.properties ? form.additionalProperties : undefined))
      : form.type === 'array'
        ? form.items
        : undefined;
  return next && formAt(next, rest);
}

/** `X or null` (zod's `nullable`, which JSON Schema writes as a union with null): the X. */
function nullableOf(form: Form): Form | undefined {
  const [first, second, ...more] = form.anyOf ?? [];
  return more.length === 0 && second?.type === 'null' && Object.keys(second).length === 1 ? first : undefined;
}

function withoutNull(form: Form): Form {
  return nullableOf(form) ?? form;
}

/** The branches of the union `form` is (through a `nullable` around it). */
function unionOf(form: Form): Form[] | undefined {
  const inner = nullableOf(form);
  return inner?.anyOf ? unionOf(inner) : form.anyOf;
}

/** What `form` accepts, in words ("one of pending, confirmed", "a list of …", "true or false"). */
function allowed(form: Form): string | undefined {
  const inner = nullableOf(form);
  if (inner) {
    const words = allowed(inner);
    return words && `${words}, or null`;
  }
  if (choices(form).length > 0) return oneOf(choices(form));
  if (form.anyOf) return unionForms(form.anyOf);
  // `{ "type": ["string", "null"] }`: how zod writes `X or null` of a plain type.
  if (Array.isArray(form.type)) return alternatives(form.type.map((type) => allowed({ type }) ?? type));
  switch (form.type) {
    case 'array': {
      const item = form.items && allowed(form.items);
      return item && `a list whose items are each ${item}`;
    }
    case 'integer':
      return expectedText('int');
    case 'number':
    case 'object':
    case 'string':
    case 'boolean':
    case 'null':
      return expectedText(form.type);
    default:
      return undefined;
  }
}

/**
 * Every literal or enum value in one "one of …", then the other forms; a list of what another form
 * takes is "a list of them" ("one of pending, confirmed, or a list of them").
 */
function unionForms(options: readonly Form[]): string | undefined {
  const values = options.flatMap(choices);
  const others = options.filter((o) => choices(o).length === 0);
  const single = [
    ...(values.length > 0 ? [oneOf(values)] : []),
    ...others.filter((o) => o.type !== 'array').map(allowed),
  ];
  const lists = others
    .filter((o) => o.type === 'array')
    .map((o) => (o.items && single.includes(allowed(o.items)) ? 'a list of them' : allowed(o)));
  const words = [...single, ...lists];
  return words.includes(undefined) ? undefined : alternatives([...new Set(words as string[])]);
}

/** The values an enum or literal takes (none for any other form). */
function choices(form: Form): unknown[] {
  if (form.enum) return form.enum;
  return 'const' in form ? [form.const] : [];
}

/** "one of a, b, c" (a single value: just that value). */
function oneOf(values: readonly unknown[]): string {
  const shown = values.map(word);
  return shown.length === 1 ? (shown[0] as string) : `one of ${shown.join(', ')}`;
}

function alternatives(forms: readonly string[]): string {
  return forms.length === 1 ? (forms[0] as string) : `${forms.slice(0, -1).join(', ')}, or ${forms.at(-1) as string}`;
}

/** An allowed value as written in a sentence: bare when it is a plain word (`no_show`), else as JSON. */
function word(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z0-9_.:-]+$/.test(value) ? value : String(JSON.stringify(value));
}

/** The value a caller passed, short enough for a message: strings quoted and cut at 40 characters. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  return article(typeof value);
}

/** The value at `path` in what the caller passed (zod's issues do not carry it). */
function valueAt(input: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | null | undefined)?.[key], input);
}

/** Values JSON cannot carry, named as what they are (zod would call a BigInt merely the wrong type). */
function unsendable(value: unknown): string | undefined {
  if (typeof value === 'bigint') return 'is a BigInt, which JSON cannot carry: pass a number';
  if (typeof value === 'number' && !Number.isFinite(value)) return `is ${value}: pass a finite number`;
  if (typeof value === 'symbol' || typeof value === 'function') return `is a ${typeof value}, which JSON cannot carry`;
  return undefined;
}

function issueText(issue: Issue, actual: unknown): string {
  // An enum's own message says what is allowed; the value given is added, as for any choice.
  if (issue.code === 'invalid_value')
    return `${custom(issue) ?? `must be ${oneOf(issue.values)}`}; got ${show(actual)}`;
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
  if (expected === 'null') return 'null';
  if (expected === 'record') return 'an object';
  return article(expected);
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function quote(key: string): string {
  return JSON.stringify(key);
}
