import { decodeCursor, encodeCursor } from './cursor.js';

export interface PageRequest {
  limit: number;
  cursor: string | undefined;
  /** Names this list (and its path parameters), so a cursor of another list is refused. */
  list: string;
  /** Canonical text of the filters, so a cursor used with different filters is refused. */
  filters: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * One page of `records` (kept in ascending `seq` order). Finds the start by binary search, so
 * a page costs O(limit) however long the list is (plus the skipped non-matches when filtered).
 */
export function pageOf<R extends { seq: number }, T>(
  records: readonly R[],
  request: PageRequest,
  toItem: (record: R) => T,
  matches: (record: R) => boolean = () => true,
): Page<T> {
  const after = request.cursor === undefined ? -1 : decodeCursor(request.cursor, request.list, request.filters);
  const items: T[] = [];
  let lastSeq = after;
  let i = firstAfter(records, after);
  for (; i < records.length && items.length < request.limit; i++) {
    const record = records[i] as R;
    if (!matches(record)) continue;
    items.push(toItem(record));
    lastSeq = record.seq;
  }
  while (i < records.length && !matches(records[i] as R)) i++;
  const more = i < records.length;
  return {
    items,
    next_cursor: more ? encodeCursor({ list: request.list, filters: request.filters, after: lastSeq }) : null,
  };
}

function firstAfter(records: readonly { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((records[mid] as { seq: number }).seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
