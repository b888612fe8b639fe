import { billingQuery, quoteQuery, updateSettingsBody } from '../../../schemas/index.js';
import { validation } from '../api-error.js';
import type { Account, Store } from '../../model/model.js';
import { pageOf } from '../paging.js';
import { currencyFor, PRICES } from '../../domain/pricing-table.js';
import { readQuery } from '../query.js';
import { readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { formatUtc } from '../../model/zoned-time.js';
import { pageRequest } from './list-params.js';
import { noQuery } from './no-query.js';

function summary(account: Account, now: number) {
  const locations = { total: 0, active: 0, paused: 0, terminated: 0, hours_missing: 0 };
  const reservations = { pending: 0, confirmed: 0, completed: 0, no_show: 0, unacknowledged: 0 };
  let videos = 0;
  for (const store of account.storeList) {
    locations.total++;
    locations[store.status]++;
    if (store.hoursState === 'missing') locations.hours_missing++;
    reservations.pending += store.counts.pending;
    reservations.confirmed += store.counts.confirmed;
    reservations.completed += store.counts.completed;
    reservations.no_show += store.counts.no_show;
    reservations.unacknowledged += store.unacknowledged;
    videos += store.videos.length;
  }
  return { generated_at: formatUtc(now), locations, reservations, videos_published: videos };
}

function billingRow(store: Store, month: number) {
  const counts = store.monthly.get(month);
  return {
    partner_location_id: store.id,
    videos_published: counts?.videos ?? 0,
    completed_visits: counts?.completed ?? 0,
    no_shows: counts?.noShows ?? 0,
  };
}

function settings(account: Account) {
  return { surcharge_per_video_cents: account.surchargePerVideoCents, currency: account.currency };
}

/** Summary, monthly billing counts, pricing and settings. */
export const reportRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/summary',
    handler: ({ world, account, query }) => {
      noQuery(query);
      return { status: 200, body: summary(account, world.clock.nowMs()) };
    },
  },
  {
    method: 'GET',
    pattern: '/billing/monthly',
    handler: ({ account, query }) => {
      const q = readQuery(query, { month: 'string', limit: 'int', cursor: 'string' }, billingQuery);
      // One row per store enrolled by the end of the month (UTC), zeros included.
      const [year, month] = q.month.split('-').map(Number) as [number, number];
      const monthEnd = Date.UTC(year, month, 1);
      const key = year * 100 + month;
      return {
        status: 200,
        body: pageOf(account.storeList, pageRequest('billing/monthly', query, q), (s) => billingRow(s, key), (s) => s.createdAt < monthEnd),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/pricing/quote',
    handler: ({ account, query }) => {
      const q = readQuery(query, { plan: 'string', videos_per_month: 'int', country: 'string' }, quoteQuery);
      const prices = PRICES[q.plan];
      if (!prices) throw validation('plan', `plan ${JSON.stringify(q.plan)} is not a plan this service sells. Use one of: ${Object.keys(PRICES).join(', ')}.`);
      const currency = currencyFor(q.country);
      const price = prices[currency] ?? 0;
      const surcharge = account.surchargePerVideoCents;
      return {
        status: 200,
        body: {
          plan: q.plan,
          videos_per_month: q.videos_per_month,
          currency,
          price_per_video_cents: price,
          surcharge_per_video_cents: surcharge,
          total_cents: (price + surcharge) * q.videos_per_month,
        },
      };
    },
  },
  {
    method: 'GET',
    pattern: '/settings',
    handler: ({ account, query }) => {
      noQuery(query);
      return { status: 200, body: settings(account) };
    },
  },
  {
    method: 'PUT',
    pattern: '/settings',
    handler: async ({ account, query, request }) => {
      noQuery(query);
      const body = validBody(updateSettingsBody, await readJson(request));
      account.surchargePerVideoCents = body.surcharge_per_video_cents;
      return { status: 200, body: settings(account) };
    },
  },
];
