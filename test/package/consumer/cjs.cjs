'use strict';
// A partner's CommonJS project, with the packed tarball installed (scripts/check-package.mjs).
// WITH_MSW=1: msw is installed too, and mswHandlers() must work with the partner's setupServer.
const { sdkChecks } = require('./checks.cjs');

const modules = {
  sdk: require('@crp/partner-sdk'),
  testing: require('@crp/partner-sdk/testing'),
  redis: require('@crp/partner-sdk/redis'),
  events: require('@crp/partner-sdk/events'),
  bulk: require('@crp/partner-sdk/bulk'),
};
sdkChecks('cjs', modules, () => (process.env.WITH_MSW === '1' ? require('msw/node') : null)).catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
