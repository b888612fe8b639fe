import type * as z from 'zod/mini';

/** One refused input: a dotted `field` path (`address.state`) and a sentence about it. */
export interface InputProblem {
  field: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

/**
 * The first problem zod found, in the service's words: a dotted field path and a message that
 * says what is wrong. zod/mini's own default message is only "Invalid input".
 */
export function describeIssue(issue: Issue, root?: string, input?: unknown): InputProblem {
  const path = [root, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { field: [...path, key].join('.'), message: `${quote(key)} is not a recognised field` };
  }
  const field = path.join('.') || '(body)';
  const actual = input === undefined ? issue.input : valueAt(input, issue.path);
  return { field, message: `${field} ${unsendable(actual) ?? issueText(issue, actual)}` };
}

/** The value at `path` in what the caller passed (zod's issues do not carry it). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
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
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return actual === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_union':
      return 'has an unsupported shape';
    default:
      return 'is invalid';
  }
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
    problem: issue ? describeIssue(issue, root, value) : { field: root ?? '(body)', message: 'is invalid' },
  };
}
