import * as z from 'zod/mini';
import { address, addressInput, hours, hoursInput, openEnum } from './common.js';
import { optionalFields, type InputSchema, type RequestFields, type ResponseFields, type Schema } from './fields.js';
import { pathId } from './ids.js';
import { refined } from './refinement.js';

export const LOCATION_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** `partner_location_id`: the partner's own id of a store; `.` and `..` are refused (they would change a URL's path). */
export const locationId = pathId(
  z
    .string()
    .check(z.regex(LOCATION_ID_PATTERN, 'must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-"')),
);

const followerRangeFields = {
  /** Fewest followers, 0 or more. */
  min: z.optional(z.int().check(z.gte(0, 'must be 0 or more'))),
  /** Most followers, 0 or more. */
  max: z.optional(z.int().check(z.gte(0, 'must be 0 or more'))),
};
/** A range of follower counts; either end may be left open. */
export interface FollowerRange extends RequestFields<typeof followerRangeFields> {}
const followerRange: InputSchema<FollowerRange> = z.strictObject(followerRangeFields);

const rulesFields = {
  /** Follower counts a creator must have, on any platform. */
  follower_range: z.optional(followerRange),
  /** Follower counts by platform name (e.g. `instagram`), overriding `follower_range` there. */
  follower_range_by_platform: z.optional(z.record(z.string(), followerRange)),
  /** Platforms a creator must post on, e.g. `['instagram', 'tiktok']`. */
  platforms: z.optional(z.array(z.string().check(z.minLength(1, 'must not be empty')))),
};
/** Who may be invited for a store. Rules never select creators by ethnicity, age or gender (`ProhibitedRuleError`). */
export interface RulesInput extends RequestFields<typeof rulesFields> {}
export const rulesInput: InputSchema<RulesInput> = z.strictObject(rulesFields);

const planFields = {
  /** The plan's name, e.g. `growth`. */
  name: z.string().check(z.minLength(1, 'must not be empty')),
  /** Videos a month, 1..100. */
  videos_per_month: z.int().check(z.gte(1, 'must be between 1 and 100'), z.lte(100, 'must be between 1 and 100')),
};
/** A store's plan. */
export interface PlanInput extends RequestFields<typeof planFields> {}
export const planInput: InputSchema<PlanInput> = z.strictObject(planFields);

const contactFields = {
  /** Contact person's name. */
  name: z.optional(z.string()),
  /** Contact email address. */
  email: z.optional(z.string().check(z.regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address'))),
  /** Contact phone number. */
  phone: z.optional(z.string()),
};
/** The merchant's own contact, for the service. */
export interface ContactInput extends RequestFields<typeof contactFields> {}
export const contactInput: InputSchema<ContactInput> = z.strictObject(contactFields);

const TIME_ZONE_MESSAGE = 'must be an IANA time-zone name such as America/Los_Angeles';
const timeZone = refined(
  z.string(),
  z.refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, TIME_ZONE_MESSAGE),
  TIME_ZONE_MESSAGE,
);

export const preferredLanguage = z.enum(['en', 'zh'], 'must be "en" or "zh"');

/** A store's name and address: what identifies an enrollment (same id, name and address again returns the same store). */
const identityFields = {
  /** The store's name, 1..200 characters. */
  name: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  /** The store's street address (sent whole, also in an update). */
  address: addressInput,
};

/** The store fields that may be sent at enrollment and changed later with an update. */
const detailFields = {
  /** Opening hours; left out at enrollment, the service looks them up (`hours.state` says whether it found them). */
  hours: z.optional(hoursInput),
  /** IANA time zone, e.g. `America/Los_Angeles`. */
  time_zone: z.optional(timeZone),
  /** Language for messages to the merchant: `en` or `zh`. */
  preferred_language: z.optional(preferredLanguage),
  /** The store's plan. */
  plan: z.optional(planInput),
  /** Dishes creators are asked to feature. */
  dishes: z.optional(z.array(z.string().check(z.minLength(1, 'must not be empty')))),
  /** The merchant's own contact. */
  contact: z.optional(contactInput),
  /** Who may be invited (follower ranges, platforms). */
  rules: z.optional(rulesInput),
};

const enrollFields = {
  /** Your own id for the store: 1..128 of letters, digits, `.`, `_`, `:`, `-` (not `.` or `..`). */
  partner_location_id: locationId,
  ...identityFields,
  ...detailFields,
};
/** Body of `locations.enroll()`. */
export interface EnrollLocationBody extends RequestFields<typeof enrollFields> {}
export const enrollLocationBody: InputSchema<EnrollLocationBody> = z.strictObject(enrollFields);

const updateFields = { ...optionalFields(identityFields), ...detailFields };
/** Body of `locations.update()`: any of the changeable fields, nothing else. */
export interface UpdateLocationBody extends RequestFields<typeof updateFields> {}
export const updateLocationBody: InputSchema<UpdateLocationBody> = z.strictObject(updateFields);

export const locationStatus = openEnum(['active', 'paused', 'terminated']);
/** A store's state: `active`, `paused` or `terminated` (a value this version does not know is kept as a string).
 *
 * @useDeclaredType
 */
export type LocationStatus = z.infer<typeof locationStatus>;

const planRecordFields = {
  /** The plan's name. */
  name: z.string(),
  /** Videos a month. */
  videos_per_month: z.number(),
};
/** A store's plan, as returned. */
export interface Plan extends ResponseFields<typeof planRecordFields> {}

const contactRecordFields = {
  /** Contact person's name. */
  name: z.optional(z.nullable(z.string())),
  /** Contact email address. */
  email: z.optional(z.nullable(z.string())),
  /** Contact phone number. */
  phone: z.optional(z.nullable(z.string())),
};
/** The merchant's contact, as returned. */
export interface Contact extends ResponseFields<typeof contactRecordFields> {}

const rangeRecordFields = {
  /** Fewest followers. */
  min: z.optional(z.nullable(z.number())),
  /** Most followers. */
  max: z.optional(z.nullable(z.number())),
};
/** A range of follower counts, as returned. */
export interface FollowerRangeRecord extends ResponseFields<typeof rangeRecordFields> {}
const rangeRecord: Schema<FollowerRangeRecord> = z.looseObject(rangeRecordFields);

const rulesRecordFields = {
  /** Follower counts a creator must have, on any platform. */
  follower_range: z.optional(z.nullable(rangeRecord)),
  /** Follower counts by platform name. */
  follower_range_by_platform: z.optional(z.nullable(z.record(z.string(), rangeRecord))),
  /** Platforms a creator must post on. */
  platforms: z.optional(z.nullable(z.array(z.string()))),
};
/** A store's creator rules, as returned. */
export interface Rules extends ResponseFields<typeof rulesRecordFields> {}

const progressFields = {
  /** Visits booked and confirmed. */
  visits_scheduled: z.number(),
  /** Visits that took place. */
  visits_completed: z.number(),
  /** Videos published for the store. */
  videos_published: z.number(),
};
/** A store's progress (single-store read). */
export interface Progress extends ResponseFields<typeof progressFields> {}

const nextVisitFields = {
  /** The booking of the visit. */
  reservation_id: z.string(),
  /** When, ISO 8601 with the store's UTC offset. */
  visit_at: z.string(),
};
/** The store's next confirmed visit. */
export interface NextVisit extends ResponseFields<typeof nextVisitFields> {}

const locationFields = {
  /** Your own id for the store. */
  partner_location_id: z.string(),
  /** The store's name. */
  name: z.string(),
  /** The store's street address. */
  address,
  /** `active`, `paused` or `terminated`. */
  status: locationStatus,
  /** Opening hours and whether they are known (`state`). */
  hours,
  /** IANA time zone, e.g. `America/Los_Angeles`. */
  time_zone: z.optional(z.nullable(z.string())),
  /** `en` or `zh`. */
  preferred_language: z.optional(z.nullable(z.string())),
  /** The store's plan. */
  plan: z.optional(z.nullable(z.looseObject(planRecordFields) as Schema<Plan>)),
  /** Dishes creators are asked to feature. */
  dishes: z.optional(z.nullable(z.array(z.string()))),
  /** The merchant's own contact. */
  contact: z.optional(z.nullable(z.looseObject(contactRecordFields) as Schema<Contact>)),
  /** Who may be invited. */
  rules: z.optional(z.nullable(z.looseObject(rulesRecordFields) as Schema<Rules>)),
  /** Visits and videos so far (single-store read only). */
  progress: z.optional(z.nullable(z.looseObject(progressFields) as Schema<Progress>)),
  /** The next confirmed visit, or null (single-store read only). */
  next_visit: z.optional(z.nullable(z.looseObject(nextVisitFields) as Schema<NextVisit>)),
  /** When the store was enrolled, ISO 8601 UTC. */
  created_at: z.string(),
  /** When the store last changed, ISO 8601 UTC. */
  updated_at: z.string(),
};
/** A store as the service returns it. */
export interface Location extends ResponseFields<typeof locationFields> {}
export const location: Schema<Location> = z.looseObject(locationFields);

const dashboardTokenFields = {
  /** The read-only token for the store's dashboard page. */
  token: z.string(),
  /** When it stops working, ISO 8601 UTC (30 minutes after it was made). */
  expires_at: z.string(),
};
/** A short-lived token for one store's dashboard (experimental: not switched on yet). */
export interface DashboardToken extends ResponseFields<typeof dashboardTokenFields> {}
export const dashboardToken: Schema<DashboardToken> = z.looseObject(dashboardTokenFields);

/** How deep a rules object may nest before it is refused (the contract's rules are three levels deep). */
const MAX_RULES_DEPTH = 32;

/** Why a rules object cannot be sent: a rule that selects by ethnicity, age or gender, or a shape JSON cannot carry. */
export type RulesProblem = { kind: 'prohibited'; field: string } | { kind: 'circular' | 'too_deep'; field: string };

/**
 * The first problem in `rules`, at any depth: a key that selects by ethnicity, age or gender
 * (`prohibited`), a value that contains itself (`circular`), or nesting deeper than 32 (`too_deep`).
 * Walks iteratively, so no input can overflow the stack.
 */
export function findRulesProblem(value: unknown, root = 'rules'): RulesProblem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number; ancestors: ReadonlySet<object> }> = [
    { value, path: root, depth: 0, ancestors: new Set() },
  ];
  while (stack.length > 0) {
    const here = stack.pop()!;
    if (here.value === null || typeof here.value !== 'object') continue;
    if (here.ancestors.has(here.value)) return { kind: 'circular', field: here.path };
    if (here.depth > MAX_RULES_DEPTH) return { kind: 'too_deep', field: here.path };
    const ancestors = new Set(here.ancestors).add(here.value);
    const entries = Object.entries(here.value);
    for (const [key] of entries) {
      if (!Array.isArray(here.value) && isProhibitedKey(key))
        return { kind: 'prohibited', field: `${here.path}.${key}` };
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      stack.push({ value: inner, path: `${here.path}.${key}`, depth: here.depth + 1, ancestors });
    }
  }
  return undefined;
}

/** The dotted path of the first rule key that selects by ethnicity, age or gender, at any depth. */
export function findProhibitedRule(value: unknown, path = 'rules'): string | undefined {
  const problem = findRulesProblem(value, path);
  return problem?.kind === 'prohibited' ? problem.field : undefined;
}

const PROHIBITED_WORDS = new Set([
  'ethnic',
  'ethnicity',
  'ethnicities',
  'race',
  'races',
  'age',
  'ages',
  'gender',
  'genders',
  'sex',
]);

function isProhibitedKey(key: string): boolean {
  // Whole words only (`min_age`, `ageRange`, `gender`), so `page` or `storage` do not match.
  const words = key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase());
  return words.some((w) => PROHIBITED_WORDS.has(w));
}
