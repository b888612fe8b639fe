import { refusedBeforeSending } from './refusal.js';

/** A path segment a URL parser would drop (`.`) or climb (`..`); percent-encoding leaves dots as they are. */
const DOT_SEGMENT = /^\.{1,2}$/;

/**
 * Fill a route template such as `/locations/{partner_location_id}/pause`, percent-encoding each
 * value so an id can never change the path's shape. The resources check each id against its
 * schema first; this is the last guard, for any route: an empty value or a dot-segment is refused.
 */
export function fillRoute(route: string, params: Record<string, string> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '' || DOT_SEGMENT.test(value)) {
      const message = typeof value === 'string' && value !== '' ? `${name} must not be "." or ".."` : `${name} is required`;
      throw refusedBeforeSending(message, name);
    }
    return encodeURIComponent(value);
  });
}
