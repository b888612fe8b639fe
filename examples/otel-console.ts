/**
 * OpenTelemetry, printed to the console: each SDK call as a span (named after the method, with the
 * HTTP attributes, the request id, the attempts, and its waits and retries as events), the trace
 * context sent with every request, and the SDK's metrics. Swap the console exporters for OTLP ones
 * to send the same data to your tracing and metrics backends.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 npx tsx examples/otel-console.ts
 *
 * Needs `@opentelemetry/api` (the optional peer dependency of `@crp/partner-sdk/otel`) and, for
 * this setup, `@opentelemetry/sdk-trace-base`, `@opentelemetry/sdk-metrics`, `@opentelemetry/core`
 * and `@opentelemetry/context-async-hooks` (or `@opentelemetry/sdk-node`, which brings them all).
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NotFoundError, PartnerClient } from '@crp/partner-sdk';
import { openTelemetry } from '@crp/partner-sdk/otel';
import { isMain } from './support/main.js';

/**
 * What an application does once at start-up (NodeSDK does the same): register a tracer provider,
 * a meter provider, the W3C propagator and an async context manager, globally.
 */
export function startOpenTelemetry(exporters: { spans?: SpanExporter; metrics?: PushMetricExporter } = {}): { shutdown(): Promise<void> } {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporters.spans ?? new ConsoleSpanExporter())] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: exporters.metrics ?? new ConsoleMetricExporter(), exportIntervalMillis: 60_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    // Flushes what is pending: the metrics are printed here.
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/**
 * A traced job: the application's own span around a few SDK calls, which become its children
 * (a summary, a walk over two pages of bookings, a store that does not exist).
 */
export async function tracedJob(client: PartnerClient, print: (line: string) => void = console.log): Promise<void> {
  const tracer = trace.getTracer('nightly-sync');
  await tracer.startActiveSpan('nightly-sync', async (job) => {
    try {
      const summary = await client.reports.summary();
      print(`summary: ${summary.locations.total} stores`);
      const pages = client.reservations.list({ limit: 2 }).pages();
      let count = 0;
      for await (const page of pages) {
        count += page.items.length;
        if (count >= 4) break;
      }
      print(`read ${count} bookings`);
      await client.locations.get('no-such-store').catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
        print(`not found, request ${error.requestId}`);
      });
      print(`trace ${job.spanContext().traceId}`);
    } finally {
      job.end();
    }
  });
}

if (isMain(import.meta.url)) {
  // Before the client: the SDK asks the global providers at each call, so this order only matters for your own spans.
  const otel = startOpenTelemetry();
  const client = new PartnerClient({ telemetry: openTelemetry() });
  tracedJob(client)
    .finally(() => client.close())
    .finally(() => otel.shutdown())
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
