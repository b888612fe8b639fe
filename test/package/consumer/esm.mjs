// A partner's ESM project, with the packed tarball installed (scripts/check-package.mjs).
// WITH_MSW=1: msw is installed too, and mswHandlers() must work with the partner's setupServer.
import * as sdk from '@crp/partner-sdk';
import * as testing from '@crp/partner-sdk/testing';
import * as redis from '@crp/partner-sdk/redis';
import * as events from '@crp/partner-sdk/events';
import * as bulk from '@crp/partner-sdk/bulk';
import { sdkChecks } from './checks.cjs';

await sdkChecks('esm', { sdk, testing, redis, events, bulk }, () =>
  process.env.WITH_MSW === '1' ? import('msw/node') : null,
);
