/**
 * Request bodies of the store endpoints, checked as the wire contract states them ("Store",
 * "PATCH takes any of …"). Written here, not imported from the SDK's schemas.
 */
import type { StoreChanges, StoreInput } from '../../model/store-fields.js';
import { DOT_SEGMENT_SAYS, isDotSegment, LOCATION_ID, LOCATION_ID_FORM } from './location-id.js';
import { arrayOf, integer, object, oneOf, optional, recordOf, string, type Rule } from './rules.js';

const text = (max: number) => string({ min: 1, max });
const clock = string({ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, says: 'must be a time as HH:MM (24-hour)' });
const span = object({ open: clock, close: clock });
const day = optional(arrayOf(span));
const weekly = object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day });

const address = object({
  line1: text(500),
  city: text(500),
  state: text(500),
  postal_code: text(500),
  country: string({ pattern: /^[A-Z]{2}$/, says: 'must be an ISO 3166-1 alpha-2 country code such as US' }),
});

const followerRange = object({ min: optional(integer(0)), max: optional(integer(0)) });

const isTimeZone = (name: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** Fields a client may send at enrollment and change later with PATCH. */
const changeable = {
  name: text(200),
  address,
  // A client sends only `weekly`; `state` is the server's (so sending it is refused).
  hours: optional(object({ weekly })),
  time_zone: optional(string({ test: isTimeZone, says: 'must be an IANA time-zone name such as America/Los_Angeles' })),
  preferred_language: optional(oneOf(['en', 'zh'] as const)),
  plan: optional(object({ name: text(200), videos_per_month: integer(1, 100) })),
  dishes: optional(arrayOf(string({ min: 1 }))),
  contact: optional(
    object({
      name: optional(string()),
      email: optional(string({ pattern: /^[^@\s]+@[^@\s]+$/, says: 'must be an email address' })),
      phone: optional(string()),
    }),
  ),
  rules: optional(
    object({
      follower_range: optional(followerRange),
      follower_range_by_platform: optional(recordOf(followerRange)),
      platforms: optional(arrayOf(string({ min: 1 }))),
    }),
  ),
};

/** `first`, then `second` on what it returned. */
const both =
  <T>(first: Rule<T>, second: Rule<T>): Rule<T> =>
  (value, path) =>
    second(first(value, path), path);

/** `POST /locations`. */
export const enrollBody: Rule<StoreInput> = object({
  partner_location_id: both(
    string({ pattern: LOCATION_ID, says: `must be ${LOCATION_ID_FORM}` }),
    string({ test: (id) => !isDotSegment(id), says: DOT_SEGMENT_SAYS }),
  ),
  ...changeable,
});

/** `PATCH /locations/{id}`: any of the changeable fields, nothing else. */
export const changesBody: Rule<StoreChanges> = object({
  name: optional(changeable.name),
  address: optional(changeable.address),
  hours: changeable.hours,
  time_zone: changeable.time_zone,
  preferred_language: changeable.preferred_language,
  plan: changeable.plan,
  dishes: changeable.dishes,
  contact: changeable.contact,
  rules: changeable.rules,
});
