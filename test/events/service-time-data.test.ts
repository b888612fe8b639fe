/**
 * The service's own data as a floor under an estimate no answers confirmed yet (`ServiceClock.reached`):
 * a booking created at T shows the service's clock reached T. After a history reset, a first answer
 * days behind must neither be chosen over one that fits the data, nor stamp events before it.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/events/service-clock.js';
import { fakeClock } from '../helpers/fake-clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-26T14:18:00Z');
/** The service's clock after its history went back: 38 hours behind the client's. */
const BACK = T0 - 38 * HOUR;

const dated = (ms: number) => new Headers({ date: new Date(ms).toUTCString() });

/** A confirmed estimate on the client's clock, then a history reset the data showed. */
function afterReset() {
  const local = fakeClock({ start: T0 - HOUR });
  const service = new ServiceClock(local);
  service.observe(dated(local.now()));
  service.observe(dated(local.now()));
  expect(service.confirmed).toBe(true);
  local.advance(HOUR);
  service.historyWentBack();
  return { local, service };
}

describe("the service's data under an unconfirmed estimate", () => {
  it('a first answer days behind and a right one (a tie): the one the data contradicts is not chosen', () => {
    const { service } = afterReset();
    // The page that showed the history gone back: bookings created as late as the service's now.
    service.reached(BACK);
    service.observe(dated(BACK - 2.26 * DAY));
    service.observe(dated(BACK));
    expect(service.confirmed).toBe(false);
    expect(service.now()).toBe(BACK);
  });

  it('an answer days behind, read before the data: the estimate is never before the latest booking the service created', () => {
    const { local, service } = afterReset();
    service.observe(dated(BACK - 2.26 * DAY));
    expect(service.now()).toBe(BACK - 2.26 * DAY);
    service.reached(BACK - 5 * 60_000);
    service.reached(BACK - 2 * DAY);
    expect(service.now()).toBe(BACK - 5 * 60_000);
    local.advance(60_000);
    expect(service.now()).toBe(BACK - 4 * 60_000);
    // A time remembered as seen stays early, but not before what the data shows.
    expect(service.seenAt()).toBe(BACK - 4 * 60_000);
  });

  it('within a few minutes of the data (another server writes it) an answer still counts', () => {
    const { service } = afterReset();
    service.reached(BACK + 5 * 60_000);
    service.observe(dated(BACK));
    service.observe(dated(BACK));
    expect(service.confirmed).toBe(true);
    // Confirmed, the estimate is the answers'.
    expect(service.now()).toBe(BACK);
  });

  it("a confirmed estimate is the answers' alone, and a history reset forgets the data of the history lost", () => {
    const local = fakeClock({ start: T0 });
    const service = new ServiceClock(local);
    service.observe(dated(T0));
    service.observe(dated(T0));
    service.reached(T0 + DAY);
    expect(service.now()).toBe(T0);

    const fresh = new ServiceClock(local);
    fresh.reached(T0 + HOUR);
    expect(fresh.now()).toBe(T0 + HOUR);
    fresh.historyWentBack();
    fresh.observe(dated(BACK));
    expect(fresh.now()).toBe(BACK);
  });

  it('takes no unusable time from the data (unparsable, before 2000, after 9999-11)', () => {
    const { service } = afterReset();
    service.observe(dated(BACK));
    for (const at of [Number.NaN, Date.parse('1970-01-01T00:00:00Z'), Date.parse('9999-12-31T00:00:00Z')])
      service.reached(at);
    expect(service.now()).toBe(BACK);
  });
});
