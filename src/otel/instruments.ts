import type { Counter, Gauge, Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import { METRIC, SCOPE } from './names.js';

/** The metrics of every call, created once per meter. */
export interface Instruments {
  calls: Counter;
  callDuration: Histogram;
  waitDuration: Histogram;
  rateLimited: Counter;
  retries: Counter;
  remaining: Gauge;
}

// Seconds. HTTP's conventional boundaries stop at 10 s; a call that waits out a Retry-After or a
// spent window can take up to a minute (the default maxRetryAfter), so the tail gets two more.
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

export function createInstruments(meter: Meter): Instruments {
  return {
    calls: meter.createCounter(METRIC.calls, { description: 'SDK calls, by operation and outcome.', unit: '{call}' }),
    callDuration: meter.createHistogram(METRIC.callDuration, {
      description: 'Duration of SDK calls, waits and retries included.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    waitDuration: meter.createHistogram(METRIC.waitDuration, {
      description:
        'Time calls waited before an attempt (rate budget, Retry-After, backoff, a shared pause), by reason.',
      unit: 's',
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    rateLimited: meter.createCounter(METRIC.rateLimited, {
      description: '429 responses received.',
      unit: '{response}',
    }),
    retries: meter.createCounter(METRIC.retries, {
      description: 'Attempts repeated after a failure, by reason.',
      unit: '{retry}',
    }),
    remaining: meter.createGauge(METRIC.remaining, {
      description: 'Calls left in the rate budget, as the latest response reported.',
      unit: '{call}',
    }),
  };
}

/**
 * Instruments of a fixed provider, or of the global one as it is at each call: unlike the tracer
 * API, the metrics API has no proxy, so a meter taken before the application registered its
 * provider would stay a no-op for good.
 */
export function instrumentsOf(provider: MeterProvider | (() => MeterProvider)): () => Instruments {
  if (typeof provider !== 'function') {
    const fixed = createInstruments(provider.getMeter(SCOPE));
    return () => fixed;
  }
  let current: MeterProvider | undefined;
  let instruments: Instruments | undefined;
  return () => {
    const now = provider();
    if (now !== current || !instruments) {
      current = now;
      instruments = createInstruments(now.getMeter(SCOPE));
    }
    return instruments;
  };
}
