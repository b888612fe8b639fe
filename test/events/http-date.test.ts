/** parseHttpDate: RFC 9110's three forms of an HTTP date, and what is not one. */
import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../src/events/http-date.js';

const NOV_6_1994 = Date.parse('1994-11-06T08:49:37Z');
const REFERENCE = Date.parse('2026-11-25T00:00:00Z');

describe('parseHttpDate', () => {
  it('reads IMF-fixdate and the obsolete RFC 850 and asctime forms', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', REFERENCE)).toBe(NOV_6_1994);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', REFERENCE)).toBe(NOV_6_1994);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', REFERENCE)).toBe(NOV_6_1994);
    expect(parseHttpDate('Fri, 31 Dec 9999 23:59:59 GMT', REFERENCE)).toBe(Date.parse('9999-12-31T23:59:59Z'));
  });

  it("places RFC 850's two-digit year within 50 years after the reference", () => {
    expect(parseHttpDate('Wednesday, 25-Nov-26 00:00:00 GMT', REFERENCE)).toBe(REFERENCE);
    expect(parseHttpDate('Wednesday, 01-Jan-76 00:00:00 GMT', REFERENCE)).toBe(Date.parse('2076-01-01T00:00:00Z'));
    expect(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', REFERENCE)).toBe(Date.parse('1977-01-01T00:00:00Z'));
  });

  it('takes a leap second as the last second of its minute', () => {
    expect(parseHttpDate('Sat, 31 Dec 2016 23:59:60 GMT', REFERENCE)).toBe(Date.parse('2016-12-31T23:59:59Z'));
  });

  it.each([
    '1',
    '',
    '2026-11-25T00:00:00Z',
    'Wed, 25 Nov 2026 00:00:00 UTC',
    'Wed, 25 Nov 2026 00:00:00 +0000',
    'wed, 25 Nov 2026 00:00:00 GMT',
    'Wed, 5 Nov 2026 00:00:00 GMT',
    'Thu, 25 Nov 2026 00:00:00 GMT', // the 25th is a Wednesday
    'Mon, 30 Feb 2026 00:00:00 GMT',
    'Wed, 25 Nov 2026 24:00:00 GMT',
    'Wed, 25 Nov 2026 23:60:00 GMT',
    'Wed, 25 Nov 26 00:00:00 GMT',
    'Wednesday, 25-Nov-2026 00:00:00 GMT',
    'Wed Nov 25 00:00:00 26',
    'Wed, 25 Nov 2026 00:00:00 GMT; extra',
  ])('refuses %j', (value) => {
    expect(parseHttpDate(value, REFERENCE)).toBeUndefined();
  });
});
