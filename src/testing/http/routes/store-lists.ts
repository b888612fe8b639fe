import { pageOf } from '../paging.js';
import { noQuery, readQuery } from '../query.js';
import { decisionBody } from '../validation/other-bodies.js';
import { PAGE } from '../validation/query-rules.js';
import { batchRecord, creatorRecord, videoRecord } from '../records.js';
import { readJson, validBody } from '../request-body.js';
import type { Route } from '../router.js';
import { currentBatch, decide } from '../../domain/sample-review.js';
import { findStore } from '../../domain/stores.js';
import { pageRequest } from './list-params.js';

/** A store's videos, creators and sample review. */
export const storeListRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/locations/:id/content',
    handler: ({ account, params, query }) => {
      const store = findStore(account, params.id ?? '');
      const q = readQuery(query, PAGE);
      return {
        status: 200,
        body: pageOf(store.videos, pageRequest(`locations/${store.id}/content`, query, q), videoRecord),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/locations/:id/creators',
    handler: ({ account, params, query }) => {
      const store = findStore(account, params.id ?? '');
      const q = readQuery(query, PAGE);
      return {
        status: 200,
        body: pageOf(store.creators, pageRequest(`locations/${store.id}/creators`, query, q), creatorRecord),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/locations/:id/creator-samples',
    handler: ({ world, account, params, query }) => {
      noQuery(query);
      return { status: 200, body: batchRecord(currentBatch(world, findStore(account, params.id ?? ''))) };
    },
  },
  {
    method: 'POST',
    pattern: '/locations/:id/creator-samples/:batch/decision',
    handler: async ({ world, account, params, query, request }) => {
      noQuery(query);
      const store = findStore(account, params.id ?? '');
      const body = validBody(decisionBody, await readJson(request));
      return { status: 200, body: batchRecord(decide(world, store, params.batch ?? '', body.decision)) };
    },
  },
];
