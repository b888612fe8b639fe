/**
 * Wall-clock time in a store's IANA zone, DST included, computed with Intl.
 * Offsets are cached per zone and quarter hour (every real transition falls on one),
 * so formatting 100,000 bookings costs a handful of Intl calls.
 */
import { MINUTE } from '../simulation/clock.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offsets by zone, then by quarter-hour bucket. */
const offsets = new Map<string, Map<number, number>>();
const QUARTER_HOUR = 15 * MINUTE;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's UTC offset in minutes at instant `ms` (e.g. -480 for 08:00 behind UTC). */
export function offsetMinutes(timeZone: string, ms: number): number {
  const bucket = Math.floor(ms / QUARTER_HOUR);
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  const cached = zone.get(bucket);
  if (cached !== undefined) return cached;
  const at = bucket * QUARTER_HOUR;
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(at)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  const offset = Math.round((asUtc - at) / MINUTE);
  if (zone.size > 100_000) zone.clear();
  zone.set(bucket, offset);
  return offset;
}

/** `2026-12-03T19:30:00-08:00`: the instant as wall-clock time in the zone, with its offset. */
export function formatZoned(ms: number, timeZone: string): string {
  const offset = offsetMinutes(timeZone, ms);
  const local = new Date(ms + offset * MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-12-01T09:00:00Z`: a time about the request, in UTC, whole seconds. */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export interface CivilDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

/** The calendar date in the zone at instant `ms`. */
export function localDate(ms: number, timeZone: string): CivilDate {
  const d = new Date(ms + offsetMinutes(timeZone, ms) * MINUTE);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The date `days` after `date` (negative goes back). */
export function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Monday .. 6 = Sunday. */
export function weekdayIndex(date: CivilDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/** The instant when the zone's wall clock shows `minutes` past midnight of `date` (may exceed a day). */
export function zonedToUtc(timeZone: string, date: CivilDate, minutes: number): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day) + minutes * MINUTE;
  const first = wall - offsetMinutes(timeZone, wall) * MINUTE;
  const second = offsetMinutes(timeZone, first);
  return wall - second * MINUTE;
}

/** `YYYY-MM-DD` of an ISO string that carries a local offset: its first ten characters. */
export function datePart(iso: string): string {
  return iso.slice(0, 10);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
