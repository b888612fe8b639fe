/**
 * Rules that select creators by ethnicity, age or gender are refused (as the service's specification requires) with 422, at any
 * depth. The walk uses its own stack, not recursion, so no nesting can overflow it (the body's
 * depth is capped before this runs anyway).
 */
const WORDS = new Set([
  'ethnic',
  'ethnicity',
  'ethnicities',
  'race',
  'races',
  'age',
  'ages',
  'gender',
  'genders',
  'sex',
]);

/** The dotted path of the first key naming a prohibited attribute under `rules`, if any. */
export function findProhibitedRule(rules: unknown): string | undefined {
  const stack: Array<[value: unknown, path: string]> = [[rules, 'rules']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value);
    if (!Array.isArray(value)) {
      const hit = entries.find(([key]) => isProhibited(key));
      if (hit) return `${path}.${hit[0]}`;
    }
    // Reversed so the first key is looked into first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string, unknown];
      stack.push([inner, `${path}.${key}`]);
    }
  }
  return undefined;
}

/** Whole words only (`min_age`, `ageRange`, `gender`), so `page` or `storage` do not match. */
function isProhibited(key: string): boolean {
  return key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).some((word) => WORDS.has(word.toLowerCase()));
}
