/**
 * ServiceClock on an injected client clock: which readings it takes (the `Date` header, a reported
 * UTC time, the later of the two, nothing unparseable), and when a reading behind the estimate
 * replaces it (a step of more than 5 s, a clock being set) or is taken for latency (kept).
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/events/service-clock.js';
import { fakeClock } from '../helpers/fake-clock.js';

const T0 = Date.parse('2026-11-25T12:00:00Z');

/** A client clock that moves only when told (or when it sleeps). */
const localClock = (start: number) => fakeClock({ start });

const dated = (ms: number) => new Headers({ date: new Date(ms).toUTCString() });
const iso = (ms: number) => new Date(ms).toISOString();

describe('ServiceClock', () => {
  it("is the client's clock, unknown, until a response tells the service's time", () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    expect(service.known).toBe(false);
    expect(service.now()).toBe(T0);
    local.advance(1_500);
    expect(service.now()).toBe(T0 + 1_500);
  });

  it("takes the Date header and then runs on the client's clock from there", () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    const serviceTime = T0 + 40 * 86_400_000;
    service.observe(dated(serviceTime));
    expect(service.known).toBe(true);
    expect(service.now()).toBe(serviceTime);
    local.advance(7_000);
    expect(service.now()).toBe(serviceTime + 7_000);
  });

  it('keeps a service behind the client behind (a negative offset)', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(dated(T0 - 3_600_000));
    expect(service.now()).toBe(T0 - 3_600_000);
  });

  it('takes a reported time when there are no headers, or no Date header', () => {
    const noHeaders = new ServiceClock(localClock(T0));
    noHeaders.observe(undefined, iso(T0 + 60_000));
    expect(noHeaders.known).toBe(true);
    expect(noHeaders.now()).toBe(T0 + 60_000);

    const noDate = new ServiceClock(localClock(T0));
    noDate.observe(new Headers({ 'content-type': 'application/json' }), iso(T0 - 60_000));
    expect(noDate.now()).toBe(T0 - 60_000);
  });

  it('takes the later of the Date header and the reported time, whichever it is', () => {
    const headerLater = new ServiceClock(localClock(T0));
    headerLater.observe(dated(T0 + 10_000), iso(T0 + 8_000));
    expect(headerLater.now()).toBe(T0 + 10_000);

    const reportedLater = new ServiceClock(localClock(T0));
    reportedLater.observe(dated(T0 + 8_000), iso(T0 + 10_000));
    expect(reportedLater.now()).toBe(T0 + 10_000);
  });

  it('ignores what does not parse as a time, and a response that tells nothing', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(undefined);
    service.observe(new Headers());
    service.observe(new Headers({ date: 'not a date' }), '');
    service.observe(undefined, 'yesterday-ish');
    expect(service.known).toBe(false);
    expect(service.now()).toBe(T0);

    // One good source among bad ones is still taken.
    service.observe(new Headers({ date: 'not a date' }), iso(T0 + 2_000));
    expect(service.now()).toBe(T0 + 2_000);
    service.observe(dated(T0 + 30_000), 'garbage');
    expect(service.now()).toBe(T0 + 30_000);
  });

  it('moves forward with every later reading', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(dated(T0 + 100_000));
    service.observe(dated(T0 + 101_000));
    expect(service.now()).toBe(T0 + 101_000);
  });

  it('keeps its estimate for a reading up to 5 s behind it (one-second resolution, network delay)', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(dated(T0 + 100_000));
    service.observe(dated(T0 + 99_000));
    expect(service.now()).toBe(T0 + 100_000);
    service.observe(dated(T0 + 95_000)); // exactly 5 s behind: still latency
    expect(service.now()).toBe(T0 + 100_000);
    // Client time passing does not make an old-looking reading new.
    local.advance(3_000);
    service.observe(dated(T0 + 99_000));
    expect(service.now()).toBe(T0 + 103_000);
  });

  it('moves back for a reading more than 5 s behind (a clock being set)', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(dated(T0 + 100_000));
    service.observe(dated(T0 + 94_000));
    expect(service.now()).toBe(T0 + 94_000);

    const setBack = new ServiceClock(local);
    setBack.observe(dated(T0 + 86_400_000));
    setBack.observe(undefined, iso(T0));
    expect(setBack.now()).toBe(T0);
  });

  it('counts a step from the estimate, not from the first reading', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(dated(T0));
    service.observe(dated(T0 + 20_000));
    // 6 s behind the estimate, 14 s ahead of the first reading: a step back.
    service.observe(dated(T0 + 14_000));
    expect(service.now()).toBe(T0 + 14_000);
  });
});
