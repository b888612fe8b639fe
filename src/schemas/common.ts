import * as z from 'zod/mini';
import { refined } from './refinement.js';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';

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

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Why a `YYYY-MM` or `YYYY-MM-DD` text names no month or day on the (proleptic Gregorian)
 * calendar, or undefined when it names one: a pattern alone lets `2026-02-30` through.
 */
function notOnCalendar(text: string): string | undefined {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number | undefined];
  if (month < 1 || month > 12) return `months run 01 to 12, not ${text.slice(5, 7)}`;
  if (day === undefined) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day < 1 || day > days) return `${MONTH_NAMES[month - 1]} ${text.slice(0, 4)} has days 01 to ${days}`;
  return undefined;
}

/** `text` in the form `pattern` that must also be a real `what` on the calendar (`checks`: that, in words). */
function onCalendar(pattern: RegExp, form: string, what: string, checks: string) {
  return refined(
    z.string().check(z.regex(pattern, `must be ${form}`)),
    z.superRefine((text, ctx) => {
      const reason = pattern.test(text) ? notOnCalendar(text) : undefined;
      if (reason)
        ctx.addIssue({
          code: 'custom',
          input: text,
          message: `is not a real ${what} (${reason}); got ${JSON.stringify(text)}`,
        });
    }),
    checks,
  );
}

/** `YYYY-MM-DD`, a day that exists (`2026-02-30` does not). */
export const calendarDate = onCalendar(
  /^\d{4}-\d{2}-\d{2}$/,
  'a date as YYYY-MM-DD',
  'date',
  'a day that exists on the calendar (2026-02-30 is refused)',
);

/** `YYYY-MM`, a month that exists (`2026-13` does not). */
export const calendarMonth = onCalendar(
  /^\d{4}-\d{2}$/,
  'a month as YYYY-MM',
  'month',
  'a month that exists (months run 01 to 12)',
);

/** ISO 3166-1 alpha-2, upper case. */
export const countryCode = z
  .string()
  .check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as US'));

const nonEmpty = z
  .string()
  .check(z.minLength(1, 'must not be empty'), z.maxLength(500, 'must be at most 500 characters'));

const addressInputFields = {
  /** Street and number. */
  line1: nonEmpty,
  /** City. */
  city: nonEmpty,
  /** State, province or region. */
  state: nonEmpty,
  /** Postal code. */
  postal_code: nonEmpty,
  /** Country, ISO 3166-1 alpha-2 in upper case, e.g. `US`. */
  country: countryCode,
};
/** A store's street address as sent. */
export interface AddressInput extends RequestFields<typeof addressInputFields> {}
export const addressInput: InputSchema<AddressInput> = z.strictObject(addressInputFields);

const addressFields = {
  /** Street and number. */
  line1: z.string(),
  /** City. */
  city: z.string(),
  /** State, province or region. */
  state: z.string(),
  /** Postal code. */
  postal_code: z.string(),
  /** Country, ISO 3166-1 alpha-2, e.g. `US`. */
  country: z.string(),
};
/** A store's street address as the service returns it. */
export interface Address extends ResponseFields<typeof addressFields> {}
export const address: Schema<Address> = z.looseObject(addressFields);

const openingSpanFields = {
  /** Opening time, `HH:MM` (24-hour, store's local time). */
  open: clockTime,
  /** Closing time, `HH:MM` (24-hour, store's local time). */
  close: clockTime,
};
/** One opening span of a day. */
export interface OpeningSpan extends RequestFields<typeof openingSpanFields> {}
const openingSpan: InputSchema<OpeningSpan> = z.strictObject(openingSpanFields);
const day = z.optional(z.array(openingSpan));

const weeklyHoursFields = {
  /** Monday's opening spans; left out, closed. */
  mon: day,
  /** Tuesday's opening spans; left out, closed. */
  tue: day,
  /** Wednesday's opening spans; left out, closed. */
  wed: day,
  /** Thursday's opening spans; left out, closed. */
  thu: day,
  /** Friday's opening spans; left out, closed. */
  fri: day,
  /** Saturday's opening spans; left out, closed. */
  sat: day,
  /** Sunday's opening spans; left out, closed. */
  sun: day,
};
/** Opening hours by weekday, in the store's local time. A day left out is closed. */
export interface WeeklyHours extends RequestFields<typeof weeklyHoursFields> {}
export const weeklyHours: InputSchema<WeeklyHours> = z.strictObject(weeklyHoursFields);
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const hoursInputFields = {
  /** Opening hours by weekday. */
  weekly: weeklyHours,
};
/** Opening hours as sent: only the weekly hours; `state` belongs to the server. */
export interface HoursInput extends RequestFields<typeof hoursInputFields> {}
export const hoursInput: InputSchema<HoursInput> = z.strictObject(hoursInputFields);

const openingSpanOutFields = {
  /** Opening time, `HH:MM` (24-hour, store's local time). */
  open: z.string(),
  /** Closing time, `HH:MM` (24-hour, store's local time). */
  close: z.string(),
};
/** One opening span of a day, as returned. */
export interface OpeningSpanRecord extends ResponseFields<typeof openingSpanOutFields> {}
const dayOut = z.optional(z.nullable(z.array(z.looseObject(openingSpanOutFields) as Schema<OpeningSpanRecord>)));
const weeklyOutFields = {
  /** Monday's opening spans; absent, closed. */
  mon: dayOut,
  /** Tuesday's opening spans; absent, closed. */
  tue: dayOut,
  /** Wednesday's opening spans; absent, closed. */
  wed: dayOut,
  /** Thursday's opening spans; absent, closed. */
  thu: dayOut,
  /** Friday's opening spans; absent, closed. */
  fri: dayOut,
  /** Saturday's opening spans; absent, closed. */
  sat: dayOut,
  /** Sunday's opening spans; absent, closed. */
  sun: dayOut,
};
/** Opening hours by weekday as returned, in the store's local time. */
export interface WeeklyHoursRecord extends ResponseFields<typeof weeklyOutFields> {}

const hoursFields = {
  /** `found`: the hours are known; `missing`: none were sent or found, and the store is on hold until they are. */
  state: openEnum(['found', 'missing']),
  /** The weekly hours, when known. */
  weekly: z.optional(z.nullable(z.looseObject(weeklyOutFields) as Schema<WeeklyHoursRecord>)),
};
/** Opening hours as the service returns them. */
export interface Hours extends ResponseFields<typeof hoursFields> {}
export const hours: Schema<Hours> = z.looseObject(hoursFields);

const limit = z.int().check(z.gte(1, 'must be between 1 and 200'), z.lte(200, 'must be between 1 and 200'));
/** The most items a page may hold: what a walk over every item asks for unless `limit` is given. */
export const MAX_PAGE_SIZE = 200;

/** Query parameters every paged list accepts. */
export const pageQuery = {
  /** Items per page, 1..200 (the service's default is 50; a `for await` walk asks for 200 unless you set it). */
  limit: z.optional(limit),
  /** Where to start: a `nextCursor` saved from an earlier page. */
  cursor: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
};
/** Paging parameters every list accepts. */
export interface ListQuery extends RequestFields<typeof pageQuery> {}
export const listQuery: InputSchema<ListQuery> = z.strictObject(pageQuery);

/** A page of a list: `{ items, next_cursor }`; a null, empty or missing cursor means the last page. */
export function listPage<T>(item: Schema<T>) {
  return z.looseObject({
    items: z.array(item),
    next_cursor: z.optional(z.nullable(z.string())),
  });
}

export const errorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'xiaohongshu'] as const;
