import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../src/index.js';
import { collect } from '../helpers/collect.js';
import { refusedUnsent } from '../helpers/refused-unsent.js';
import { address, startSdkEnv, TRANSPORTS, type SdkEnv } from '../helpers/sdk-env.js';

const STATUSES = 'one of pending, confirmed, rejected, cancelled, completed, no_show, or a list of them';
const NOT_SENT = '. Nothing was sent.';

type Call = (c: PartnerClient) => PromiseLike<unknown>;

/** Every method's filters and choices, refused before anything is sent, naming the field and what it takes. */
const refusals: Array<[string, Call, string, string]> = [
  // reservations.list: one status or a list of them, true/false, dates, a store id, paging.
  [
    'reservations.list status',
    (c) => c.reservations.list({ status: 'nope' as never }),
    'status',
    `status must be ${STATUSES}; got "nope"`,
  ],
  [
    'reservations.list status in a list',
    (c) => c.reservations.list({ status: ['confirmed', 'nope' as never] }),
    'status',
    `status must be ${STATUSES}; got "nope" in the list`,
  ],
  [
    'reservations.list status number',
    (c) => c.reservations.list({ status: 3 as never }),
    'status',
    `status must be ${STATUSES}; got 3`,
  ],
  [
    'reservations.list status null',
    (c) => c.reservations.list({ status: null as never }),
    'status',
    `status must be ${STATUSES}; got null`,
  ],
  [
    'reservations.list status empty list',
    (c) => c.reservations.list({ status: [] as never }),
    'status',
    'status must name at least one status (leave status out for every status)',
  ],
  [
    'reservations.list status (for await)',
    (c) => collect(c.reservations.list({ status: 'Confirmed' as never })),
    'status',
    `status must be ${STATUSES}; got "Confirmed"`,
  ],
  [
    'reservations.list acknowledged',
    (c) => c.reservations.list({ acknowledged: 'yes' as never }),
    'acknowledged',
    'acknowledged must be true or false',
  ],
  [
    'reservations.list from (30 February)',
    (c) => c.reservations.list({ from: '2026-02-30' }),
    'from',
    'from is not a real date (February 2026 has days 01 to 28); got "2026-02-30"',
  ],
  [
    'reservations.list to (31 April)',
    (c) => c.reservations.list({ to: '2026-04-31' }),
    'to',
    'to is not a real date (April 2026 has days 01 to 30); got "2026-04-31"',
  ],
  [
    'reservations.list to (29 February, not a leap year)',
    (c) => c.reservations.list({ from: '2024-02-29', to: '2025-02-29' }),
    'to',
    'to is not a real date (February 2025 has days 01 to 28); got "2025-02-29"',
  ],
  [
    'reservations.list from (month 13)',
    (c) => c.reservations.list({ from: '2026-13-01' }),
    'from',
    'from is not a real date (months run 01 to 12, not 13); got "2026-13-01"',
  ],
  [
    'reservations.list from (form)',
    (c) => c.reservations.list({ from: '2026-2-3' }),
    'from',
    'from must be a date as YYYY-MM-DD',
  ],
  [
    'reservations.list partner_location_id',
    (c) => c.reservations.list({ partner_location_id: 'a b' }),
    'partner_location_id',
    'partner_location_id must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-"',
  ],
  ['reservations.list limit', (c) => c.reservations.list({ limit: 0 }), 'limit', 'limit must be between 1 and 200'],
  [
    'reservations.list limit (fraction)',
    (c) => c.reservations.list({ limit: 2.5 }),
    'limit',
    'limit must be a whole number',
  ],
  ['reservations.list cursor', (c) => c.reservations.list({ cursor: '' }), 'cursor', 'cursor must not be empty'],
  [
    'reservations.list unknown filter',
    (c) => c.reservations.list({ state: 'pending' } as never),
    'state',
    '"state" is not a recognised field; accepted: limit, cursor, status, acknowledged, from, to, partner_location_id',
  ],
  // One store's bookings, its videos and its creators: paging only.
  [
    'reservations.listForLocation status',
    (c) => c.reservations.listForLocation('store-1', { status: 'pending' } as never),
    'status',
    '"status" is not a recognised field; accepted: limit, cursor',
  ],
  [
    'reservations.listForLocation limit',
    (c) => c.reservations.listForLocation('store-1', { limit: 201 }),
    'limit',
    'limit must be between 1 and 200',
  ],
  ['content.list limit', (c) => c.content.list('store-1', { limit: '5' as never }), 'limit', 'limit must be a number'],
  [
    'content.list unknown filter',
    (c) => c.content.list('store-1', { platform: 'tiktok' } as never),
    'platform',
    '"platform" is not a recognised field; accepted: limit, cursor',
  ],
  ['creators.list cursor', (c) => c.creators.list('store-1', { cursor: '' }), 'cursor', 'cursor must not be empty'],
  [
    'creators.list unknown filter',
    (c) => collect(c.creators.list('store-1', { platforms: ['tiktok'] } as never)),
    'platforms',
    '"platforms" is not a recognised field; accepted: limit, cursor',
  ],
  [
    'creators.decideSamples decision',
    (c) => c.creators.decideSamples('store-1', 'batch_1', 'maybe' as never),
    'decision',
    'decision must be "approve" or "new_batch"; got "maybe"',
  ],
  [
    'reservations.acknowledge kind',
    (c) => c.reservations.acknowledge('res_1', 'seen' as never),
    'acknowledged_kind',
    'acknowledged_kind must be "forwarded_to_manager" or "acknowledged_self"; got "seen"',
  ],
  // Reports: a month that exists.
  [
    'reports.billingMonthly month 13',
    (c) => c.reports.billingMonthly('2026-13'),
    'month',
    'month is not a real month (months run 01 to 12, not 13); got "2026-13"',
  ],
  [
    'reports.billingMonthly month 00',
    (c) => collect(c.reports.billingMonthly('2026-00')),
    'month',
    'month is not a real month (months run 01 to 12, not 00); got "2026-00"',
  ],
  [
    'reports.billingMonthly month (form)',
    (c) => c.reports.billingMonthly('december'),
    'month',
    'month must be a month as YYYY-MM',
  ],
  [
    'reports.billingMonthly month missing',
    (c) => c.reports.billingMonthly(undefined as never),
    'month',
    'month is required',
  ],
  [
    'reports.billingMonthly limit',
    (c) => c.reports.billingMonthly('2026-11', { limit: -1 }),
    'limit',
    'limit must be between 1 and 200',
  ],
  [
    'pricing.quote country',
    (c) => c.pricing.quote({ plan: 'growth', videos_per_month: 4, country: 'usa' }),
    'country',
    'country must be an ISO 3166-1 alpha-2 country code such as US',
  ],
  // Locations: choices and unknown fields in a store's body, at any depth.
  [
    'locations.enroll preferred_language',
    (c) =>
      c.locations.enroll({
        partner_location_id: 's-1',
        name: 'N',
        address: address(1),
        preferred_language: 'fr' as never,
      }),
    'preferred_language',
    'preferred_language must be "en" or "zh"; got "fr"',
  ],
  [
    'locations.update preferred_language null',
    (c) => c.locations.update('s-1', { preferred_language: null as never }),
    'preferred_language',
    'preferred_language must be "en" or "zh"; got null',
  ],
  [
    'locations.update unknown field',
    (c) => c.locations.update('s-1', { status: 'paused' } as never),
    'status',
    '"status" is not a recognised field; accepted: name, address, hours, time_zone, preferred_language, plan, dishes, contact, rules',
  ],
  [
    'locations.update address field',
    (c) => c.locations.update('s-1', { address: { ...address(1), zip: '1' } as never }),
    'address.zip',
    '"zip" is not a recognised field; accepted: line1, city, state, postal_code, country',
  ],
  [
    'locations.update hours weekday',
    (c) => c.locations.update('s-1', { hours: { weekly: { monday: [] } as never } }),
    'hours.weekly.monday',
    '"monday" is not a recognised field; accepted: mon, tue, wed, thu, fri, sat, sun',
  ],
];

describe.each(TRANSPORTS)('filters and choices refused before sending (%s)', (transport) => {
  let env: SdkEnv;
  let client: PartnerClient;
  beforeAll(async () => {
    env = await startSdkEnv(transport);
    client = env.client();
  });
  afterAll(() => env.close());

  it.each(refusals)('%s', async (_, call, field, message) => {
    const error = await refusedUnsent(env, () => call(client));
    expect(error).toMatchObject({ code: 'validation_error', field, message: `${message}${NOT_SENT}` });
  });

  it('the same filters, when real, go through and the sandbox answers', async () => {
    const before = env.sandbox.requests.length;
    const leapDay = await client.reservations.list({
      status: ['confirmed', 'completed'],
      from: '2024-02-29',
      to: '2028-02-29',
    });
    expect(leapDay.items).toEqual([]);
    expect((await client.reports.billingMonthly('2026-12')).items).toEqual([]);
    expect(env.sandbox.requests.slice(before).map((r) => r.status)).toEqual([200, 200]);
  });
});
