/**
 * An OpenTelemetry SDK set up for tests: spans to an in-memory exporter, metrics to an in-memory
 * exporter through a reader flushed on demand, W3C propagation and async context registered globally.
 */
import { context, metrics, propagation, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export interface OtelHarness {
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  /** Ended spans, oldest first. */
  spans(): ReadableSpan[];
  /** Every metric recorded so far, by instrument name. */
  metrics(): Promise<Map<string, MetricData>>;
  /** Everything exported (spans and metrics) as one JSON text, to search for what must never appear. */
  exportedText(): Promise<string>;
  reset(): void;
  shutdown(): Promise<void>;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers the W3C propagator and an async context manager globally (once per test file). */
export function registerGlobals(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

export function unregisterGlobals(): void {
  context.disable();
  propagation.disable();
  trace.disable();
  metrics.disable();
  contextManager = undefined;
}

export function createHarness(): OtelHarness {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });

  async function collect(): Promise<Map<string, MetricData>> {
    await reader.forceFlush();
    const byName = new Map<string, MetricData>();
    // Cumulative: the latest export holds everything recorded so far.
    const latest = metricExporter.getMetrics().at(-1);
    for (const scope of latest?.scopeMetrics ?? [])
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    return byName;
  }

  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    metrics: collect,
    async exportedText() {
      const spans = spanExporter
        .getFinishedSpans()
        .map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links }));
      return JSON.stringify({ spans, metrics: [...(await collect()).values()] });
    },
    reset() {
      spanExporter.reset();
      metricExporter.reset();
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The data points of one metric, as `{ attributes, value }`, for readable assertions. */
export function points(
  metric: MetricData | undefined,
): Array<{ attributes: Attributes; value: DataPoint<unknown>['value'] }> {
  if (!metric) return [];
  return (metric.dataPoints as Array<DataPoint<unknown>>).map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** The events of a span as `{ name, attributes }`. */
export function events(span: ReadableSpan | undefined): Array<{ name: string; attributes: Attributes | undefined }> {
  return (span?.events ?? []).map((e) => ({ name: e.name, attributes: e.attributes }));
}
