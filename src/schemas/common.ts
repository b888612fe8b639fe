import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';

/**
 * A string enum that also accepts values this version does not know yet.
 * The contract says a new value (a new booking status, say) is kept as a string, never an error;
 * the type still offers the known values for completion and `switch` narrowing.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(_values: T) {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/** `HH:MM`, 24-hour clock. */
export const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:MM (24-hour)'));

/** `YYYY-MM-DD`. */
export const calendarDate = z.string().check(
  z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date as YYYY-MM-DD'),
);

/** `YYYY-MM`. */
export const calendarMonth = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM'));

/** ISO 3166-1 alpha-2, upper case. */
export const countryCode = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as US'));

const nonEmpty = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(500, 'must be at most 500 characters'));

export const addressInput = z.strictObject({
  line1: nonEmpty,
  city: nonEmpty,
  state: nonEmpty,
  postal_code: nonEmpty,
  country: countryCode,
});
export type AddressInput = z.infer<typeof addressInput>;

export const address = looseObject({
  line1: z.string(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string(),
});
export type Address = z.infer<typeof address>;

const openingSpan = z.strictObject({ open: clockTime, close: clockTime });
const day = z.optional(z.array(openingSpan));

/** Opening hours by weekday, in the store's local time. A day left out is closed. */
export const weeklyHours = z.strictObject({
  mon: day,
  tue: day,
  wed: day,
  thu: day,
  fri: day,
  sat: day,
  sun: day,
});
export type WeeklyHours = z.infer<typeof weeklyHours>;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** What a client sends: only the weekly hours; `state` belongs to the server. */
export const hoursInput = z.strictObject({ weekly: weeklyHours });
export type HoursInput = z.infer<typeof hoursInput>;

export const hours = looseObject({
  state: openEnum(['found', 'missing']),
  weekly: z.optional(z.nullable(looseObject({}))),
});
export type Hours = z.infer<typeof hours>;

/** Query parameters every paged list accepts. */
export const pageQuery = {
  limit: z.optional(
    z.int().check(z.gte(1, 'must be between 1 and 200'), z.lte(200, 'must be between 1 and 200')),
  ),
  cursor: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
};
export const listQuery = z.strictObject(pageQuery);
export type ListQuery = z.infer<typeof listQuery>;

/** A page of a list: `{ items, next_cursor }`; a null, empty or missing cursor means the last page. */
export function listPage<T extends z.ZodMiniType>(item: T) {
  return looseObject({
    items: z.array(item),
    next_cursor: z.optional(z.nullable(z.string())),
  });
}

export const errorBody = looseObject({
  error: looseObject({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'xiaohongshu'] as const;
