import { refusedBeforeSending } from './refusal.js';

/** A path segment a URL parser would drop (`.`) or climb (`..`), once every disguise is taken off. */
const DOT_SEGMENT = /^\.{1,2}$/;
/** Rounds of percent-decoding tried: a server or proxy may decode a path more than once. */
const DECODE_ROUNDS = 8;
/** Byte sequences (after percent-decoding) that some servers read as a dot: overlong UTF-8, and NFKC look-alikes (U+FF0E, U+2024, U+FE52). */
const DOT_LOOKALIKES = /\xC0\xAE|\xE0\x80\xAE|\xEF\xBC\x8E|\xE2\x80\xA4|\xEF\xB9\x92|[\uFF0E\u2024\uFE52]/g;

/**
 * Whether any decoding of `path` a server might do holds a dot-segment: `%2e`/`%2E` (which the
 * WHATWG URL parser itself climbs), double encoding (`%252e`), decoded `%2f`/`%5c` separators and
 * backslashes, `;params` (`..;x`), a NUL or spaces after the dots, and dot look-alikes. A path still
 * percent-encoded after {@link DECODE_ROUNDS} rounds counts as one: nothing legitimate nests that deep.
 */
export function hasDotSegment(path: string): boolean {
  let text = path;
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (text.replace(DOT_LOOKALIKES, '.').split(/[/\\]/).some(isDotPiece)) return true;
    const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (decoded === text) return false;
    text = decoded;
  }
  return true;
}

function isDotPiece(segment: string): boolean {
  return DOT_SEGMENT.test(segment.replace(/[;\0].*$/s, '').trim());
}

/**
 * Each route split once into its text and `{name}` parts (text at even indices, names at odd).
 * The SDK's routes are a few dozen; paths of `client.request()` are a caller's, so the cache is capped.
 */
const templates = new Map<string, string[]>();
const MAX_TEMPLATES = 256;

/**
 * Fill a route template such as `/locations/{partner_location_id}/pause`, percent-encoding each
 * value so an id can never change the path's shape. The resources check each id against its
 * schema first; this is the last guard, for any route: an empty value or a dot-segment is refused.
 */
export function fillRoute(route: string, params: Record<string, string> = {}): string {
  let parts = templates.get(route);
  if (!parts) {
    parts = route.split(/\{(\w+)\}/);
    if (templates.size < MAX_TEMPLATES) templates.set(route, parts);
  }
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value = params[name];
    if (typeof value !== 'string' || value === '') throw refusedBeforeSending(`${name} is required`, name);
    const encoded = encodeURIComponent(value);
    // The encoded form is checked too: `%2e%2e` goes out as `%252e%252e`, `..` to a server that decodes twice.
    if (hasDotSegment(encoded))
      throw refusedBeforeSending(
        `${name} must not be "." or ".." in any spelling (%2e, %252e, ..;x): a URL would drop or climb that path segment`,
        name,
      );
    path += encoded + (parts[i + 1] as string);
  }
  return path;
}
