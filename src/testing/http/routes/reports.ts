import type { Account, Store } from '../../model/model.js';
import { pageOf } from '../paging.js';
import { quote } from '../../domain/pricing-table.js';
import { noQuery, readQuery } from '../query.js';
import { calendarMonth, country, nonEmpty, PAGE, wholeNumber } from '../validation/query-rules.js';
import { settingsBody } from '../validation/other-bodies.js';
import { readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { formatUtc } from '../../model/zoned-time.js';
import { pageRequest } from './list-params.js';

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
      const q = readQuery(query, { month: calendarMonth, ...PAGE }, ['month']);
      // One row per store enrolled by the end of the month (UTC), zeros included.
      const [year, month] = q.month.split('-').map(Number) as [number, number];
      const monthEnd = Date.UTC(year, month, 1);
      const key = year * 100 + month;
      return {
        status: 200,
        body: pageOf(
          account.storeList,
          pageRequest('billing/monthly', query, q),
          (s) => billingRow(s, key),
          (s) => s.createdAt < monthEnd,
        ),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/pricing/quote',
    handler: ({ account, query }) => {
      const q = readQuery(query, { plan: nonEmpty, videos_per_month: wholeNumber(1, 100), country }, [
        'plan',
        'videos_per_month',
      ]);
      return { status: 200, body: quote(q.plan, q.videos_per_month, q.country, account.surchargePerVideoCents) };
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
      const body = validBody(settingsBody, await readJson(request));
      account.surchargePerVideoCents = body.surcharge_per_video_cents;
      return { status: 200, body: settings(account) };
    },
  },
];
