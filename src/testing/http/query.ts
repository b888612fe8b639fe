import { validation } from './api-error.js';

/**
 * Reads one query parameter's text into its value, or throws a 400 naming the parameter.
 * `commaSeparated`: the parameter takes several values in one text (`status=a,b`).
 */
export type QueryRule<T> = ((text: string, name: string) => T) & { commaSeparated?: true };

type Values<R extends Record<string, QueryRule<unknown>>, Req extends keyof R> = { [K in Req]: ReturnType<R[K]> } & {
  [K in Exclude<keyof R, Req>]?: ReturnType<R[K]>;
};

/**
 * Read query parameters: an unknown or repeated parameter is a 400 naming it (never silently
 * ignored, as the service's specification requires); a missing `required` one too; each value is read by its rule.
 */
export function readQuery<R extends Record<string, QueryRule<unknown>>, Req extends keyof R & string = never>(
  params: URLSearchParams,
  rules: R,
  required: readonly Req[] = [],
): Values<R, Req> {
  const out: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (rule === undefined) {
      const known = Object.keys(rules);
      throw validation(
        name,
        `${JSON.stringify(name)} is not a recognised query parameter here. ${known.length ? `Accepted: ${known.join(', ')}.` : 'This endpoint takes none.'}`,
      );
    }
    const values = params.getAll(name);
    if (values.length > 1) throw validation(name, repeated(name, values, rule.commaSeparated === true));
    out[name] = rule(values[0] ?? '', name);
  }
  for (const name of required) if (!(name in out)) throw validation(name, `${name} is required.`);
  return out as Values<R, Req>;
}

/**
 * A repeated parameter is refused rather than read as a list (what openapi-fetch and `qs` send for
 * an array): one that takes several values is shown the form that does.
 */
function repeated(name: string, values: string[], commaSeparated: boolean): string {
  const given = `${name} was given ${values.length} times`;
  if (!commaSeparated) return `${given}; give it once.`;
  return `${given}; send several values once, comma-separated: ${name}=${values.map(encodeURIComponent).join(',')}.`;
}

/** Endpoints without query parameters refuse any. */
export function noQuery(params: URLSearchParams): void {
  readQuery(params, {});
}

/** Canonical text of the filters a list was asked with (everything but limit and cursor), for its cursors. */
export function filterKey(params: URLSearchParams): string {
  return [...params.entries()]
    .filter(([name]) => name !== 'limit' && name !== 'cursor')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}
