import { changeStatus, enroll, findStore, update, type Lifecycle } from '../../domain/stores.js';
import { MINUTE } from '../../simulation/clock.js';
import { formatUtc } from '../../model/zoned-time.js';
import { ApiError } from '../api-error.js';
import { noQuery } from '../query.js';
import { storeDetailRecord, storeRecord } from '../records.js';
import { expectNoBody, readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { findProhibitedRule } from '../validation/prohibited-rules.js';
import { changesBody, enrollBody } from '../validation/store-rules.js';

/** Rules that select creators by ethnicity, age or gender are refused before anything else is checked. */
function refuseProhibitedRules(body: unknown): void {
  if (typeof body !== 'object' || body === null || !('rules' in body)) return;
  const field = findProhibitedRule(body.rules);
  if (field) {
    throw new ApiError(
      'prohibited_rule',
      `${field} selects creators by ethnicity, age or gender, which is not allowed. Remove it; rules may set follower ranges and platforms only.`,
      field,
    );
  }
}

const lifecycle = (action: Lifecycle): Route => ({
  method: 'POST',
  pattern: `/locations/:id/${action}`,
  handler: async ({ world, account, params, query, request }) => {
    noQuery(query);
    await expectNoBody(request);
    const store = findStore(account, params.id ?? '');
    changeStatus(world, store, action);
    return { status: 200, body: storeRecord(store) };
  },
});

export const locationRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/locations',
    handler: async ({ world, account, query, request }) => {
      noQuery(query);
      const raw = await readJson(request);
      refuseProhibitedRules(raw);
      const { store, created } = enroll(world, account, validBody(enrollBody, raw));
      return { status: created ? 201 : 200, body: storeRecord(store) };
    },
  },
  {
    method: 'GET',
    pattern: '/locations/:id',
    handler: ({ world, account, params, query }) => {
      noQuery(query);
      return { status: 200, body: storeDetailRecord(findStore(account, params.id ?? ''), world.clock.nowMs()) };
    },
  },
  {
    method: 'PATCH',
    pattern: '/locations/:id',
    handler: async ({ world, account, params, query, request }) => {
      noQuery(query);
      const store = findStore(account, params.id ?? '');
      const raw = await readJson(request);
      refuseProhibitedRules(raw);
      update(world, store, validBody(changesBody, raw));
      return { status: 200, body: storeRecord(store) };
    },
  },
  lifecycle('pause'),
  lifecycle('resume'),
  lifecycle('terminate'),
  {
    method: 'POST',
    pattern: '/locations/:id/dashboard-token',
    handler: async ({ world, account, params, query, request }) => {
      if (!world.options.dashboardToken) {
        throw new ApiError(
          'feature_not_enabled',
          'Dashboard tokens are built but not switched on yet for this account. Ask the service operator to enable them.',
        );
      }
      noQuery(query);
      await expectNoBody(request);
      const store = findStore(account, params.id ?? '');
      return {
        status: 200,
        body: { token: `dtk_${store.rng.token(32)}`, expires_at: formatUtc(world.clock.nowMs() + 30 * MINUTE) },
      };
    },
  },
];
