// Type tests (vitest typecheck, part of `npm test`): each @ts-expect-error fails the run if its line compiles.
import { describe, expectTypeOf, it } from 'vitest';
import {
  unknownField,
  type Address,
  type BillingRow,
  type Contact,
  type Creator,
  type DashboardToken,
  type Hours,
  type Location,
  type NextVisit,
  type PartnerClient,
  type PriceQuote,
  type Reservation,
  type ReservationCreator,
  type Rules,
  type SampleBatch,
  type Settings,
  type Summary,
  type Video,
  type WeeklyHoursRecord,
} from '../../src/index.js';

declare const client: PartnerClient;
declare const booking: Reservation;
declare const store: Location;

describe('response types', () => {
  it('a misspelt field does not compile (no index signature)', () => {
    // @ts-expect-error: the field is acknowledged_kind
    void booking.acknowledged;
    // @ts-expect-error: the field is follower_count
    void booking.creator.followers;
    // @ts-expect-error: hours has state and weekly
    void store.hours.status;
    // @ts-expect-error: weekly days are mon..sun
    void store.hours.weekly?.monday;
    // @ts-expect-error: rules has follower_range, follower_range_by_platform, platforms
    void store.rules?.min_followers;
    // @ts-expect-error: contact has name, email, phone
    void store.contact?.mobile;
    expectTypeOf<Reservation>().not.toHaveProperty('acknowledged');
    expectTypeOf<Location>().not.toHaveProperty('locationId');
  });

  it('methods resolve to the named interfaces', async () => {
    expectTypeOf(await client.locations.get('s')).toEqualTypeOf<Location>();
    expectTypeOf(await client.locations.createDashboardToken('s')).toEqualTypeOf<DashboardToken>();
    expectTypeOf(await client.reservations.acknowledge('r', 'acknowledged_self')).toEqualTypeOf<Reservation>();
    expectTypeOf((await client.reservations.list()).items).toEqualTypeOf<Reservation[]>();
    expectTypeOf((await client.content.list('s')).items).toEqualTypeOf<Video[]>();
    expectTypeOf((await client.creators.list('s')).items).toEqualTypeOf<Creator[]>();
    expectTypeOf(await client.creators.getSamples('s')).toEqualTypeOf<SampleBatch>();
    expectTypeOf(await client.reports.summary()).toEqualTypeOf<Summary>();
    expectTypeOf((await client.reports.billingMonthly('2026-12')).items).toEqualTypeOf<BillingRow[]>();
    expectTypeOf(await client.pricing.quote({ plan: 'growth', videos_per_month: 4 })).toEqualTypeOf<PriceQuote>();
    expectTypeOf(await client.settings.get()).toEqualTypeOf<Settings>();
  });

  it('every sub-object is typed', () => {
    expectTypeOf(booking.creator).toEqualTypeOf<ReservationCreator>();
    expectTypeOf(booking.acknowledged_kind).toEqualTypeOf<'forwarded_to_manager' | 'acknowledged_self' | (string & {}) | null>();
    expectTypeOf(store.address).toEqualTypeOf<Address>();
    expectTypeOf(store.hours).toEqualTypeOf<Hours>();
    expectTypeOf(store.hours.weekly).toEqualTypeOf<WeeklyHoursRecord | null | undefined>();
    expectTypeOf(store.contact).toEqualTypeOf<Contact | null | undefined>();
    expectTypeOf(store.rules).toEqualTypeOf<Rules | null | undefined>();
    expectTypeOf(store.next_visit).toEqualTypeOf<NextVisit | null | undefined>();
    expectTypeOf<NonNullable<WeeklyHoursRecord['mon']>[number]['open']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<NonNullable<Rules['follower_range']>['min']>>().toEqualTypeOf<number>();
    expectTypeOf<Summary['reservations']['unacknowledged']>().toEqualTypeOf<number>();
  });

  it('a field this version does not know is read through unknownField()', () => {
    expectTypeOf(unknownField(booking, 'tip_cents')).toEqualTypeOf<unknown>();
    // @ts-expect-error: status is a known field: read booking.status
    unknownField(booking, 'status');
  });
});
