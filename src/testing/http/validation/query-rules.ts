/** Query parameters as the wire contract states them ("Lists", "GET /reservations filters", reports). */
import { validation } from '../api-error.js';
import type { QueryRule } from '../query.js';
import { LOCATION_ID, LOCATION_ID_FORM } from './location-id.js';

const STATUSES = ['pending', 'confirmed', 'rejected', 'cancelled', 'completed', 'no_show'];

export function wholeNumber(min: number, max: number): QueryRule<number> {
  return (text, name) => {
    if (!/^-?\d+$/.test(text)) throw validation(name, `${name} must be a whole number, got ${JSON.stringify(text)}.`);
    const value = Number(text);
    if (value < min || value > max) throw validation(name, `${name} must be between ${min} and ${max}.`);
    return value;
  };
}

export function matching(pattern: RegExp, form: string): QueryRule<string> {
  return (text, name) => {
    if (!pattern.test(text)) throw validation(name, `${name} must be ${form}, got ${JSON.stringify(text)}.`);
    return text;
  };
}

export const nonEmpty: QueryRule<string> = (text, name) => {
  if (text === '') throw validation(name, `${name} must not be empty.`);
  return text;
};

export const trueOrFalse: QueryRule<boolean> = (text, name) => {
  if (text !== 'true' && text !== 'false')
    throw validation(name, `${name} must be true or false, got ${JSON.stringify(text)}.`);
  return text === 'true';
};

/** `status=confirmed,completed`. */
export const statusList: QueryRule<Set<string>> = Object.assign(
  (text: string, name: string) => {
    const statuses = text.split(',');
    const bad = statuses.find((s) => !STATUSES.includes(s));
    if (bad !== undefined)
      throw validation(
        name,
        `${name} must be one of ${STATUSES.join(', ')} (comma-separated), got ${JSON.stringify(bad)}.`,
      );
    return new Set(statuses);
  },
  { commaSeparated: true as const },
);

/** Days in a month of the Gregorian calendar, asked of the platform's own calendar (day 0 of the next month). */
function daysIn(year: number, month: number): number {
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

/**
 * A `YYYY-MM` or `YYYY-MM-DD` that also exists on the calendar: the form alone would take
 * `2026-02-30` or `2026-13`, and the service cannot answer for a day that does not exist.
 */
function onCalendar(form: string, what: 'date' | 'month'): QueryRule<string> {
  const pattern = what === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/ : /^(\d{4})-(\d{2})$/;
  const inForm = matching(pattern, form);
  return (text, name) => {
    const [, y, m, d] = pattern.exec(inForm(text, name)) as RegExpExecArray;
    const month = Number(m);
    const refuse = (why: string) =>
      validation(name, `${name} is not a real ${what} (${why}), got ${JSON.stringify(text)}.`);
    if (month < 1 || month > 12) throw refuse(`months are 01 to 12`);
    if (d !== undefined) {
      const last = daysIn(Number(y), month);
      const day = Number(d);
      if (day < 1 || day > last) throw refuse(`${y}-${m} has days 01 to ${last}`);
    }
    return text;
  };
}

export const calendarDate = onCalendar('a date as YYYY-MM-DD', 'date');
export const calendarMonth = onCalendar('a month as YYYY-MM', 'month');
export const country = matching(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code such as US');
export const locationId = matching(LOCATION_ID, LOCATION_ID_FORM);

/** `limit` and `cursor`, which every paged list takes. */
export const PAGE = { limit: wholeNumber(1, 200), cursor: nonEmpty };
