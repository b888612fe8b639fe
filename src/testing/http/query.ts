import type * as z from 'zod/mini';
import { check } from '../../schemas/index.js';
import { validation } from './api-error.js';

/** How a query parameter's text becomes the value its schema checks. */
export type QueryKind = 'string' | 'int' | 'bool' | 'csv';

/**
 * Read query parameters: an unknown or repeated parameter is a 400 naming it (never silently
 * ignored, spec §7); values are converted by kind, then checked with the endpoint's schema.
 */
export function readQuery<S extends z.ZodMiniType>(
  params: URLSearchParams,
  kinds: Record<string, QueryKind>,
  schema: S,
): z.infer<S> {
  const raw: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
    if (kind === undefined) {
      const known = Object.keys(kinds);
      throw validation(name, `${JSON.stringify(name)} is not a recognised query parameter here. ${known.length ? `Accepted: ${known.join(', ')}.` : 'This endpoint takes none.'}`);
    }
    const values = params.getAll(name);
    if (values.length > 1) throw validation(name, `${name} was given ${values.length} times; give it once.`);
    raw[name] = convert(name, values[0] ?? '', kind);
  }
  const result = check(schema, raw);
  if (!result.ok) {
    // Query parameters are flat: `status.1` is the parameter `status`.
    const field = result.problem.field.split('.')[0] ?? result.problem.field;
    throw validation(field, result.problem.message.replace(result.problem.field, field));
  }
  return result.value;
}

function convert(name: string, text: string, kind: QueryKind): unknown {
  switch (kind) {
    case 'int':
      if (!/^-?\d+$/.test(text)) throw validation(name, `${name} must be a whole number, got ${JSON.stringify(text)}.`);
      return Number(text);
    case 'bool':
      if (text !== 'true' && text !== 'false') throw validation(name, `${name} must be true or false, got ${JSON.stringify(text)}.`);
      return text === 'true';
    case 'csv':
      return text.split(',');
    case 'string':
      return text;
  }
}

/** Canonical text of the filters a list was asked with (everything but limit and cursor), for its cursors. */
export function filterKey(params: URLSearchParams): string {
  return [...params.entries()]
    .filter(([name]) => name !== 'limit' && name !== 'cursor')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}
