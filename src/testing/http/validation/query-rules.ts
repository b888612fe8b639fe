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
  if (text !== 'true' && text !== 'false') throw validation(name, `${name} must be true or false, got ${JSON.stringify(text)}.`);
  return text === 'true';
};

/** `status=confirmed,completed`. */
export const statusList: QueryRule<Set<string>> = (text, name) => {
  const statuses = text.split(',');
  const bad = statuses.find((s) => !STATUSES.includes(s));
  if (bad !== undefined) throw validation(name, `${name} must be one of ${STATUSES.join(', ')} (comma-separated), got ${JSON.stringify(bad)}.`);
  return new Set(statuses);
};

export const calendarDate = matching(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a date as YYYY-MM-DD');
export const calendarMonth = matching(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM');
export const country = matching(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code such as US');
export const locationId = matching(LOCATION_ID, LOCATION_ID_FORM);

/** `limit` and `cursor`, which every paged list takes. */
export const PAGE = { limit: wholeNumber(1, 200), cursor: nonEmpty };
