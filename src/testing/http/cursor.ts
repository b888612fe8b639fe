import { validation } from './api-error.js';

/**
 * Opaque list cursors: base64url of the list, its filters and the insertion sequence number of
 * the last item served. Records are appended in sequence order, so a cursor never skips or
 * repeats an item however many arrive while a client pages.
 */
interface CursorData {
  list: string;
  filters: string;
  after: number;
}

export function encodeCursor(data: CursorData): string {
  return Buffer.from(JSON.stringify([data.list, data.filters, data.after])).toString('base64url');
}

/** The position after which the next page starts; throws 400 (field cursor) for a cursor of another list or filters. */
export function decodeCursor(cursor: string, list: string, filters: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    typeof decoded[2] !== 'number' ||
    !Number.isInteger(decoded[2])
  ) {
    throw validation(
      'cursor',
      'cursor is not a cursor this service issued. Pass next_cursor from the previous page unchanged.',
    );
  }
  if (decoded[0] !== list || decoded[1] !== filters) {
    throw validation(
      'cursor',
      'cursor belongs to a different list or different filters. Repeat the same filters as the page it came from, or start again without a cursor.',
    );
  }
  return decoded[2];
}
