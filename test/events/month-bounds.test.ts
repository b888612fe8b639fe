/** The months the watcher can build: never past `YYYY-MM`, and a first sync's billing history within the bookings' months. */
import { describe, expect, it } from 'vitest';
import { BookingMonths, usableServiceTime } from '../../src/events/month-bounds.js';
import { monthOf, nextMonth, previousMonth } from '../../src/events/calendar.js';

describe('month bounds', () => {
  it('never builds a month past 9999-12 or before 0000-01 (a service time in year 10000 made +010000)', () => {
    expect(monthOf(Date.parse('9999-12-31T23:59:59Z') + 86_400_000)).toBe('9999-12');
    expect(nextMonth('9999-12')).toBe('9999-12');
    expect(monthOf(Date.parse('0000-01-01T00:00:00Z') - 86_400_000)).toBe('0000-01');
    expect(previousMonth('2000-01')).toBe('1999-12');
  });

  it('takes service times from 2000 to 9999-11 only', () => {
    expect(usableServiceTime(Date.parse('2000-01-01T00:00:00Z'))).toBe(true);
    expect(usableServiceTime(Date.parse('9999-11-30T23:59:59Z'))).toBe(true);
    expect(usableServiceTime(Date.parse('1999-12-31T23:59:59Z'))).toBe(false);
    expect(usableServiceTime(Date.parse('9999-12-01T00:00:00Z'))).toBe(false);
  });

  it("ends a first sync's billing history at the last month of the bookings, created or visited, when that is before now", () => {
    const span = new BookingMonths();
    expect(span.lastOf('2026-11')).toBe('2026-11');
    span.note({ created_at: '2026-03-02T10:00:00Z', visit_at: '2026-04-10T19:00:00+02:00' });
    span.note({ created_at: '2026-02-01T10:00:00Z', visit_at: null });
    expect(span.lastOf('9999-11')).toBe('2026-04');
    expect(span.lastOf('2026-03')).toBe('2026-03');
  });

  it("keeps a poll's billing months near the latest booking's creation once the service's time runs past every booking", () => {
    const span = new BookingMonths();
    const recent = ['9990-11', '9990-10'];
    expect(span.recentWithin(recent, previousMonth, nextMonth)).toEqual(recent);
    span.note({ created_at: '2026-03-02T10:00:00Z', visit_at: '2026-04-10T19:00:00+02:00' });
    span.note({ created_at: '2026-02-01T10:00:00Z', visit_at: null });
    expect(span.recentWithin(recent, previousMonth, nextMonth)).toEqual(['2026-03', '2026-02', '2026-04']);
    // Up to the month after the last a booking reaches, the service's months stand.
    expect(span.recentWithin(['2026-05', '2026-04'], previousMonth, nextMonth)).toEqual(['2026-05', '2026-04']);
    expect(span.recentWithin(['2026-06', '2026-05'], previousMonth, nextMonth)).toEqual([
      '2026-03',
      '2026-02',
      '2026-04',
    ]);
  });
});
