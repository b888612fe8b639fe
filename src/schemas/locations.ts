import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';
import { address, addressInput, hours, hoursInput, openEnum } from './common.js';

export const LOCATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const locationId = z.string().check(
  z.regex(LOCATION_ID_PATTERN, 'must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-"'),
);

const followerRange = z.strictObject({
  min: z.optional(z.int().check(z.gte(0, 'must be 0 or more'))),
  max: z.optional(z.int().check(z.gte(0, 'must be 0 or more'))),
});

/** Who may be invited for a store. Rules never select creators by ethnicity, age or gender (spec §2). */
export const rulesInput = z.strictObject({
  follower_range: z.optional(followerRange),
  follower_range_by_platform: z.optional(z.record(z.string(), followerRange)),
  platforms: z.optional(z.array(z.string().check(z.minLength(1, 'must not be empty')))),
});
export type RulesInput = z.infer<typeof rulesInput>;

export const planInput = z.strictObject({
  name: z.string().check(z.minLength(1, 'must not be empty')),
  videos_per_month: z.int().check(z.gte(1, 'must be between 1 and 100'), z.lte(100, 'must be between 1 and 100')),
});
export type PlanInput = z.infer<typeof planInput>;

export const contactInput = z.strictObject({
  name: z.optional(z.string()),
  email: z.optional(z.string().check(z.regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address'))),
  phone: z.optional(z.string()),
});
export type ContactInput = z.infer<typeof contactInput>;

const timeZone = z.string().check(
  z.refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time-zone name such as America/Los_Angeles'),
);

export const preferredLanguage = z.enum(['en', 'zh'], 'must be "en" or "zh"');

/** The store fields that may be sent at enrollment and changed later with PATCH. */
const changeableFields = {
  name: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  address: addressInput,
  hours: z.optional(hoursInput),
  time_zone: z.optional(timeZone),
  preferred_language: z.optional(preferredLanguage),
  plan: z.optional(planInput),
  dishes: z.optional(z.array(z.string().check(z.minLength(1, 'must not be empty')))),
  contact: z.optional(contactInput),
  rules: z.optional(rulesInput),
};

/** Body of `POST /locations`. */
export const enrollLocationBody = z.strictObject({
  partner_location_id: locationId,
  ...changeableFields,
});
export type EnrollLocationBody = z.infer<typeof enrollLocationBody>;

/** Body of `PATCH /locations/{id}`: any of the changeable fields, nothing else. */
export const updateLocationBody = z.strictObject({
  name: z.optional(changeableFields.name),
  address: z.optional(changeableFields.address),
  hours: changeableFields.hours,
  time_zone: changeableFields.time_zone,
  preferred_language: changeableFields.preferred_language,
  plan: changeableFields.plan,
  dishes: changeableFields.dishes,
  contact: changeableFields.contact,
  rules: changeableFields.rules,
});
export type UpdateLocationBody = z.infer<typeof updateLocationBody>;

export const locationStatus = openEnum(['active', 'paused', 'terminated']);
export type LocationStatus = z.infer<typeof locationStatus>;

/** A store as the service returns it. Fields the contract does not list are kept. */
export const location = looseObject({
  partner_location_id: z.string(),
  name: z.string(),
  address,
  status: locationStatus,
  hours,
  time_zone: z.optional(z.nullable(z.string())),
  preferred_language: z.optional(z.nullable(z.string())),
  plan: z.optional(z.nullable(looseObject({ name: z.string(), videos_per_month: z.number() }))),
  dishes: z.optional(z.nullable(z.array(z.string()))),
  contact: z.optional(z.nullable(looseObject({}))),
  rules: z.optional(z.nullable(looseObject({}))),
  progress: z.optional(
    z.nullable(
      looseObject({ visits_scheduled: z.number(), visits_completed: z.number(), videos_published: z.number() }),
    ),
  ),
  next_visit: z.optional(z.nullable(looseObject({ reservation_id: z.string(), visit_at: z.string() }))),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Location = z.infer<typeof location>;

export const dashboardToken = looseObject({ token: z.string(), expires_at: z.string() });
export type DashboardToken = z.infer<typeof dashboardToken>;

/** The dotted path of the first rule key that selects by ethnicity, age or gender, at any depth (spec §2). */
export function findProhibitedRule(value: unknown, path = 'rules'): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const here = `${path}.${key}`;
    if (!Array.isArray(value) && isProhibitedKey(key)) return here;
    const found = findProhibitedRule(inner, here);
    if (found) return found;
  }
  return undefined;
}

const PROHIBITED_WORDS = new Set(['ethnic', 'ethnicity', 'ethnicities', 'race', 'races', 'age', 'ages', 'gender', 'genders', 'sex']);

function isProhibitedKey(key: string): boolean {
  // Whole words only (`min_age`, `ageRange`, `gender`), so `page` or `storage` do not match.
  const words = key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase());
  return words.some((w) => PROHIBITED_WORDS.has(w));
}
