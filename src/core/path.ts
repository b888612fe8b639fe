import { refusedBeforeSending } from './refusal.js';

/** A path segment a URL parser would drop (`.`) or climb (`..`); percent-encoding leaves dots as they are. */
const DOT_SEGMENT = /^\.{1,2}$/;

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
    if (typeof value !== 'string' || value === '' || DOT_SEGMENT.test(value)) {
      const message = typeof value === 'string' && value !== '' ? `${name} must not be "." or ".."` : `${name} is required`;
      throw refusedBeforeSending(message, name);
    }
    path += encodeURIComponent(value) + (parts[i + 1] as string);
  }
  return path;
}
