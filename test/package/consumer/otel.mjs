// ./otel in a partner's ESM project with @opentelemetry/api installed (scripts/check-package.mjs).
// The entry must use the application's @opentelemetry/api: a propagator the application registers
// is the one that writes into each attempt's headers, under the call's span.
import assert from 'node:assert/strict';
import { propagation, trace } from '@opentelemetry/api';
import { openTelemetry } from '@crp/partner-sdk/otel';

propagation.setGlobalPropagator({
  inject: (ctx, carrier, setter) => setter.set(carrier, 'x-probe', trace.getSpan(ctx) ? 'span' : 'no-span'),
  extract: (ctx) => ctx,
  fields: () => ['x-probe'],
});
const observer = openTelemetry().startCall({ operation: 'locations.get', method: 'GET', urlTemplate: '/partner/v1/locations/{partner_location_id}', serverAddress: '127.0.0.1', serverPort: 80 });
const headers = {};
observer.attemptStart?.({ attempt: 1, headers });
observer.end?.({ attempts: 1, durationMs: 1, status: 200 });
assert.equal(headers['x-probe'], 'span');
console.log("esm: ./otel injects through the application's @opentelemetry/api propagator: ok");
