/**
 * `@crp/partner-sdk/otel`: OpenTelemetry traces and metrics for every SDK call. A separate import
 * path with `@opentelemetry/api` as an optional peer dependency, so that applications which do not
 * use it carry none of OpenTelemetry.
 *
 * @module
 */
import { metrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import type { Telemetry } from '../index.js';
import { observeCall } from './call-observer.js';
import { instrumentsOf } from './instruments.js';
import { SCOPE } from './names.js';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans go. @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /** Where metrics go. @default the global meter provider (`metrics.getMeterProvider()`), looked up at each call */
  meterProvider?: MeterProvider;
}

/**
 * Traces and metrics for `new PartnerClient({ telemetry })`: one CLIENT span per SDK call (one per
 * page of a list walk) named after the method, e.g. `locations.get`, with the HTTP semantic-convention
 * attributes, the request id and the attempt count; each wait and retry as a span event; the trace
 * context injected into every attempt through the registered propagator; and metrics of calls,
 * durations, waits, 429 responses, retries and the remaining budget. Never the key or a body.
 * The names are listed in docs/observability.md.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 * import { openTelemetry } from '@crp/partner-sdk/otel';
 *
 * // After your OpenTelemetry SDK setup (NodeSDK, or providers registered by hand):
 * const client = new PartnerClient({ telemetry: openTelemetry() });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  // The global tracer provider is a proxy: a tracer taken now follows a provider registered later.
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const instruments = instrumentsOf(options.meterProvider ?? (() => metrics.getMeterProvider()));
  return { startCall: (call) => observeCall(call, tracer, instruments()) };
}
