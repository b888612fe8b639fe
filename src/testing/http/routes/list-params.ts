import type { PageRequest } from '../paging.js';
import { filterKey } from '../query.js';

export const DEFAULT_LIMIT = 50;

/** The paging part of a list request, named by the list so its cursors cannot be used elsewhere. */
export function pageRequest(
  list: string,
  query: URLSearchParams,
  parsed: { limit?: number | undefined; cursor?: string | undefined },
): PageRequest {
  return { list, filters: filterKey(query), limit: parsed.limit ?? DEFAULT_LIMIT, cursor: parsed.cursor };
}
