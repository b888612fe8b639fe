/**
 * Case 7 client process: sequential `locations.get` without telemetry, with `openTelemetry()` and
 * no OpenTelemetry SDK (the API's no-ops), and with an SDK set up as in production (batching span
 * processor, a metric reader, the W3C propagator). Interleaved in rounds; replies with every
 * per-call time (ms).
 */
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { serveParent } from '../lib/children.js';
import { loadOtel, loadSdk } from '../lib/paths.js';
import { timeInterleaved } from './interleaved.js';

const { PartnerClient } = await loadSdk();
const { openTelemetry } = await loadOtel();

/** Spans are exported (batched) and dropped: the cost measured is the SDK's, not a backend's. */
const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined };
/** Metrics are aggregated in memory as a real reader would, and never pulled during the run. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

serveParent({
  run: async (m) => {
    const {
      url,
      key,
      locationId: id,
      warmup,
      rounds,
      perRound,
    } = m as unknown as {
      url: string;
      key: string;
      locationId: string;
      warmup: number;
      rounds: number;
      perRound: number;
    };
    // Registered for all variants: with no span recording (the no-op variant) it writes nothing.
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
    const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
    const plain = new PartnerClient({ apiKey: key, baseUrl: url });
    const noop = new PartnerClient({ apiKey: key, baseUrl: url, telemetry: openTelemetry() });
    const traced = new PartnerClient({
      apiKey: key,
      baseUrl: url,
      telemetry: openTelemetry({ tracerProvider, meterProvider }),
    });
    const variants: Record<string, () => Promise<unknown>> = {
      sdk: () => plain.locations.get(id),
      'otel-noop': () => noop.locations.get(id),
      otel: () => traced.locations.get(id),
    };
    const samples = await timeInterleaved(variants, { warmup, rounds, perRound });
    await Promise.all([plain.close(), noop.close(), traced.close()]);
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    return samples;
  },
});
