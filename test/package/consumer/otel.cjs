'use strict';
// ./otel in a partner's CommonJS project with @opentelemetry/api installed (scripts/check-package.mjs).
const { otelCheck } = require('./checks.cjs');

otelCheck('cjs', require('@opentelemetry/api'), require('@crp/partner-sdk/otel'));
