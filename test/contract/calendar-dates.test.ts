import { describe, expect, it } from 'vitest';
import { openSandbox, TRANSPORTS } from './support/harness.js';

/**
 * Dates and months in queries must exist on the calendar, not merely look like one: the service
 * cannot answer for 30 February, and a silent empty list would hide the caller's mistake.
 */
describe.each(TRANSPORTS)('calendar dates and months in queries (%s)', (transport) => {
  const impossibleDays: Array<[string, string]> = [
    ['2026-02-29', '2026-02 has days 01 to 28'],
    ['2026-02-30', '2026-02 has days 01 to 28'],
    ['1900-02-29', '1900-02 has days 01 to 28'],
    ['2024-02-30', '2024-02 has days 01 to 29'],
    ['2026-04-31', '2026-04 has days 01 to 30'],
    ['2026-06-31', '2026-06 has days 01 to 30'],
    ['2026-09-31', '2026-09 has days 01 to 30'],
    ['2026-11-31', '2026-11 has days 01 to 30'],
    ['2026-12-32', '2026-12 has days 01 to 31'],
    ['2026-01-00', '2026-01 has days 01 to 31'],
    ['2026-13-01', 'months are 01 to 12'],
    ['2026-00-15', 'months are 01 to 12'],
  ];

  it.each(['from', 'to'])(
    'GET /reservations refuses a %s that is not a day, naming it and why, in the error shape',
    async (name) => {
      const h = await openSandbox(transport);
      for (const [day, why] of impossibleDays) {
        const r = await h.call('GET', `/reservations?${name}=${day}`);
        expect([r.status, r.headers.get('content-type')], day).toEqual([
          400,
          expect.stringContaining('application/json'),
        ]);
        expect(r.body, day).toEqual({
          error: {
            code: 'validation_error',
            field: name,
            message: `${name} is not a real date (${why}), got "${day}".`,
          },
        });
      }
    },
  );

  it('GET /reservations takes every real day, leap days included, and still refuses the wrong form', async () => {
    const h = await openSandbox(transport);
    for (const query of [
      'from=2024-02-29&to=2028-02-29',
      'from=2000-02-29',
      'to=2026-12-31',
      'from=2026-04-30&to=2026-02-28',
    ]) {
      const r = await h.call('GET', `/reservations?${query}`);
      expect([r.status, r.body.items], query).toEqual([200, []]);
    }
    const r = await h.call('GET', '/reservations?from=2026-2-3');
    expect(r.body.error).toEqual({
      code: 'validation_error',
      field: 'from',
      message: 'from must be a date as YYYY-MM-DD, got "2026-2-3".',
    });
  });

  it('GET /billing/monthly refuses a month that does not exist and takes every one that does', async () => {
    const h = await openSandbox(transport);
    for (const month of ['2026-13', '2026-00', '2026-99']) {
      const r = await h.call('GET', `/billing/monthly?month=${month}`);
      expect(r.status, month).toBe(400);
      expect(r.body, month).toEqual({
        error: {
          code: 'validation_error',
          field: 'month',
          message: `month is not a real month (months are 01 to 12), got "${month}".`,
        },
      });
    }
    for (const month of ['2026-01', '2026-02', '2026-12']) {
      expect((await h.call('GET', `/billing/monthly?month=${month}`)).status, month).toBe(200);
    }
    expect((await h.call('GET', '/billing/monthly?month=2026-1')).body.error).toEqual({
      code: 'validation_error',
      field: 'month',
      message: 'month must be a month as YYYY-MM, got "2026-1".',
    });
  });
});
