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
export function describeIssue(issue: Issue, root?: string): InputProblem {
  const path = [root, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { field: [...path, key].join('.'), message: `${quote(key)} is not a recognised field` };
  }
  const field = path.join('.') || '(body)';
  return { field, message: `${field} ${issueText(issue)}` };
}

function issueText(issue: Issue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
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
    problem: issue ? describeIssue(issue, root) : { field: root ?? '(body)', message: 'is invalid' },
  };
}
