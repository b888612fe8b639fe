/**
 * ServiceClock on an injected client clock: which readings it takes (generated_at, then the `Date`
 * header, nothing malformed or outside 2000..9999-11), how a first estimate is confirmed, and when
 * a confirmed one moves (several answers in a row agreeing) or counts a reading as an outlier.
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

  it("generated_at leads: an answer's Date is read only when its generated_at is missing or unusable", () => {
    const both = new ServiceClock(localClock(T0));
    both.observe(dated(T0 + 10_000), iso(T0 + 8_000));
    expect(both.now()).toBe(T0 + 8_000);

    const unusable = new ServiceClock(localClock(T0));
    unusable.observe(dated(T0 + 8_000), '9999-12-31T23:59:59Z');
    expect(unusable.now()).toBe(T0 + 8_000);
  });

  it("ignores what is not a time in the protocol's forms, and an answer that tells nothing", () => {
    const local = localClock(T0);
    const warnings: string[] = [];
    let outliers = 0;
    const service = new ServiceClock(local, { logger: { warn: (m) => warnings.push(m) }, onOutlier: () => outliers++ });
    service.observe(undefined);
    service.observe(new Headers());
    service.observe(new Headers({ date: 'not a date' }), '');
    service.observe(undefined, 'yesterday-ish');
    service.observe(new Headers({ date: '1' }));
    service.observe(new Headers({ date: new Date(T0).toISOString() }));
    expect(service.known).toBe(false);
    expect(service.now()).toBe(T0);
    // One warning per kind, however many answers.
    expect(warnings).toHaveLength(2);
    expect(outliers).toBe(5);

    // One good source among bad ones is still taken.
    service.observe(new Headers({ date: 'not a date' }), iso(T0 + 2_000));
    expect(service.now()).toBe(T0 + 2_000);
    service.observe(dated(T0 + 2_000), 'garbage');
    expect(service.confirmed).toBe(true);
  });

  it('refuses a time before 2000 or after 9999-11, with one warning', () => {
    const warnings: string[] = [];
    const service = new ServiceClock(localClock(T0), { logger: { warn: (m) => warnings.push(m) } });
    for (let i = 0; i < 5; i++) {
      service.observe(new Headers({ date: 'Thu, 01 Jan 1970 00:00:00 GMT' }));
      service.observe(new Headers({ date: 'Fri, 31 Dec 9999 23:59:59 GMT' }));
    }
    expect(service.known).toBe(false);
    expect(warnings).toHaveLength(1);
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

  it('moves back only when three answers in a row agree (a clock being set); one is an outlier', () => {
    const local = localClock(T0);
    let outliers = 0;
    const service = new ServiceClock(local, { onOutlier: () => outliers++ });
    service.observe(undefined, iso(T0 + 100_000));
    service.observe(dated(T0 + 100_000));
    expect(service.confirmed).toBe(true);
    service.observe(dated(T0 + 94_000));
    // Disputed: no history gone back, and the summary read again, until an answer agrees again.
    expect(service.now()).toBe(T0 + 100_000);
    expect(service.confirmed).toBe(false);
    expect(service.needsConfirming(1)).toBe(true);
    service.observe(dated(T0 + 100_000));
    expect(service.confirmed).toBe(true);
    expect(service.now()).toBe(T0 + 100_000);
    service.observe(undefined, iso(T0 + 90_000));
    service.observe(dated(T0 + 90_000));
    expect(service.now()).toBe(T0 + 100_000);
    service.observe(dated(T0 + 90_000));
    expect(service.now()).toBe(T0 + 90_000);
    expect(outliers).toBe(3);
  });

  it('never lets Dates alone overturn what the latest generated_at says', () => {
    const service = new ServiceClock(localClock(T0));
    service.observe(undefined, iso(T0));
    service.observe(undefined, iso(T0));
    for (let i = 0; i < 20; i++) service.observe(dated(T0 + 3_600_000));
    expect(service.now()).toBe(T0);
  });

  it("settles a first estimate split between two backends by the machine's clock, then refuses the other, a year away, with one warning", () => {
    const YEAR = 365 * 86_400_000;
    const warnings: string[] = [];
    let outliers = 0;
    const service = new ServiceClock(localClock(T0), {
      logger: { warn: (m) => warnings.push(m) },
      onOutlier: () => outliers++,
    });
    for (let i = 0; i < 4; i++) service.observe(undefined, iso(i % 2 === 0 ? T0 + YEAR : T0));
    expect(service.confirmed).toBe(true);
    expect(service.now()).toBe(T0);
    for (let i = 0; i < 20; i++) service.observe(dated(i % 2 === 0 ? T0 + YEAR : T0));
    expect(service.now()).toBe(T0);
    expect(outliers).toBe(10);
    expect(warnings).toHaveLength(1);
  });

  it('follows a time years away only when eight answers in a row agree on it', () => {
    const YEARS = 3 * 365 * 86_400_000;
    const service = new ServiceClock(localClock(T0));
    service.observe(undefined, iso(T0));
    service.observe(undefined, iso(T0));
    for (let i = 0; i < 7; i++) service.observe(undefined, iso(T0 - YEARS));
    expect(service.now()).toBe(T0);
    service.observe(undefined, iso(T0 - YEARS));
    expect(service.now()).toBe(T0 - YEARS);
  });
  it('remembers as seen the earliest time answers told until they agree, then the estimate', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    // The first four summaries of a property run's counterexample: no two agree.
    for (const hours of [34.9, 21.6, 0, -35.4]) service.observe(undefined, iso(T0 + hours * 3_600_000));
    expect(service.needsConfirming(4)).toBe(false);
    expect(service.now()).toBe(T0 + 21.6 * 3_600_000);
    expect(service.seenAt()).toBe(T0 - 35.4 * 3_600_000);
    local.advance(60_000);
    service.observe(undefined, iso(T0 + 60_000));
    service.observe(undefined, iso(T0 + 60_000));
    expect(service.confirmed).toBe(true);
    expect(service.seenAt()).toBe(T0 + 60_000);
  });
  it('follows a service clock set back a day even while every other answer is a year ahead (refused answers do not interrupt agreement)', () => {
    const local = localClock(T0);
    const service = new ServiceClock(local);
    service.observe(undefined, iso(T0));
    service.observe(undefined, iso(T0));
    expect(service.confirmed).toBe(true);
    const back = T0 - 86_400_000;
    for (let i = 0; i < 3; i++) {
      service.observe(dated(T0 + 365 * 86_400_000));
      service.observe(undefined, iso(back));
    }
    expect(service.now()).toBe(back);
    expect(service.confirmed).toBe(true);
  });
});
