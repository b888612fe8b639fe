/**
 * The otel adapter against the OpenTelemetry SDK's in-memory exporters, driven the way the
 * transport calls a Telemetry (driver.ts). End-to-end tests with real clients: client.test.ts.
 */
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InternalServerError, NotFoundError, RateLimitError, TimeoutError } from '../../src/core/errors.js';
import { openTelemetry } from '../../src/otel/index.js';
import { drive, GET_LOCATION } from './driver.js';
import { createHarness, events, points, registerGlobals, unregisterGlobals, type OtelHarness } from './harness.js';

let otel: OtelHarness;
const telemetry = () => openTelemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });

beforeAll(registerGlobals);
afterAll(unregisterGlobals);
beforeEach(() => {
  otel = createHarness();
});
afterEach(() => otel.shutdown());

const request = { method: 'GET', path: '/partner/v1/locations/store-1' };

describe('one span per call', () => {
  it('a plain call: a CLIENT span named after the operation, with the HTTP attributes, request id and attempt count', async () => {
    drive(telemetry(), [{ attempt: { status: 200, requestId: 'req_1', remaining: 599, limit: 600 } }]);
    const [span, ...more] = otel.spans();
    expect(more).toHaveLength(0);
    expect(span?.name).toBe('locations.get');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.instrumentationScope.name).toBe('@crp/partner-sdk');
    expect(span?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'partner.example.com',
      'server.port': 443,
      'url.template': '/partner/v1/locations/{partner_location_id}',
      'crp.operation': 'locations.get',
      'http.response.status_code': 200,
      'crp.request_id': 'req_1',
      'crp.attempts': 1,
      'crp.rate_limit.remaining': 599,
      'crp.rate_limit.limit': 600,
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.events).toEqual([]);
  });

  it('a retried call: one span, a retry event with the reason, the failed attempt and the wait, then the backoff wait', async () => {
    const error = new InternalServerError({
      status: 503,
      code: 'internal_error',
      message: 'down',
      requestId: 'req_1',
      request,
    });
    drive(telemetry(), [
      { attempt: { status: 503, requestId: 'req_1', error } },
      { retry: 'internal_error', waitMs: 200 },
      { wait: 'backoff', ms: 200 },
      { attempt: { status: 200, requestId: 'req_2' } },
    ]);
    const [span, ...more] = otel.spans();
    expect(more).toHaveLength(0);
    expect(events(span)).toEqual([
      {
        name: 'crp.retry',
        attributes: {
          'crp.attempt': 1,
          'crp.retry.reason': 'internal_error',
          'crp.retry.wait_ms': 200,
          'http.response.status_code': 503,
          'crp.request_id': 'req_1',
        },
      },
      { name: 'crp.wait', attributes: { 'crp.wait.reason': 'backoff', 'crp.wait.duration_ms': 200 } },
    ]);
    expect(span?.attributes).toMatchObject({
      'crp.attempts': 2,
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
      'crp.request_id': 'req_2',
    });
    expect(span?.attributes).not.toHaveProperty('error.type');
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    const recorded = await otel.metrics();
    expect(points(recorded.get('crp.client.retries'))).toEqual([
      { attributes: { 'crp.operation': 'locations.get', 'crp.retry.reason': 'internal_error' }, value: 1 },
    ]);
    expect(points(recorded.get('crp.client.calls'))).toEqual([
      {
        attributes: { 'crp.operation': 'locations.get', 'crp.outcome': 'success', 'http.response.status_code': 200 },
        value: 1,
      },
    ]);
  });

  it('a rate-limit wait and a 429: wait events with reason and duration, the 429 counted, time waited by reason', async () => {
    const limited = new RateLimitError({
      status: 429,
      code: 'rate_limited',
      message: 'slow down',
      requestId: 'req_1',
      retryAfterMs: 1_000,
      request,
    });
    drive(telemetry(), [
      { wait: 'rate_budget', ms: 250 },
      { attempt: { status: 429, requestId: 'req_1', error: limited, remaining: 0 } },
      { retry: 'rate_limited', waitMs: 1_000 },
      { wait: 'retry_after', ms: 1_000 },
      { attempt: { status: 200, requestId: 'req_2', remaining: 599 } },
    ]);
    const [span] = otel.spans();
    expect(
      events(span).map((e) => [e.name, e.attributes?.['crp.wait.reason'] ?? e.attributes?.['crp.retry.reason']]),
    ).toEqual([
      ['crp.wait', 'rate_budget'],
      ['crp.retry', 'rate_limited'],
      ['crp.wait', 'retry_after'],
    ]);
    expect(events(span)[0]?.attributes?.['crp.wait.duration_ms']).toBe(250);
    const recorded = await otel.metrics();
    expect(points(recorded.get('crp.client.rate_limited'))).toEqual([
      { attributes: { 'crp.operation': 'locations.get' }, value: 1 },
    ]);
    const waits = points(recorded.get('crp.client.wait.duration'));
    expect(
      waits.map((p) => [
        p.attributes['crp.wait.reason'],
        (p.value as { sum: number; count: number }).sum,
        (p.value as { count: number }).count,
      ]),
    ).toEqual([
      ['rate_budget', 0.25, 1],
      ['retry_after', 1, 1],
    ]);
    expect(recorded.get('crp.client.wait.duration')?.descriptor.unit).toBe('s');
    // The gauge holds the latest report, not the lowest.
    expect(points(recorded.get('crp.client.rate_limit.remaining'))).toEqual([
      { attributes: { 'server.address': 'partner.example.com' }, value: 599 },
    ]);
  });

  it('a failure from a response: span status ERROR, error.type the status code, the SDK code, the outcome counted as error', async () => {
    const error = new NotFoundError({
      status: 404,
      code: 'not_found',
      message: 'No store store-1 (partner text)',
      requestId: 'req_9',
      request,
    });
    drive(telemetry(), [{ attempt: { status: 404, requestId: 'req_9', error } }]);
    const [span] = otel.spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NotFoundError (not_found)' });
    expect(span?.attributes).toMatchObject({
      'error.type': '404',
      'crp.error.code': 'not_found',
      'http.response.status_code': 404,
      'crp.request_id': 'req_9',
      'crp.attempts': 1,
    });
    const recorded = await otel.metrics();
    const outcome = {
      'crp.operation': 'locations.get',
      'crp.outcome': 'error',
      'http.response.status_code': 404,
      'error.type': '404',
      'crp.error.code': 'not_found',
    };
    expect(points(recorded.get('crp.client.calls'))).toEqual([{ attributes: outcome, value: 1 }]);
    const duration = points(recorded.get('crp.client.call.duration'));
    expect(duration.map((p) => p.attributes)).toEqual([outcome]);
    expect((duration[0]!.value as { sum: number }).sum).toBeCloseTo(0.02);
  });

  it("a failure's request id and status as the outcome gives them win over the last attempt's", () => {
    const error = new NotFoundError({
      status: 404,
      code: 'not_found',
      message: 'No store',
      requestId: 'req_end',
      request,
    });
    const observer = telemetry().startCall(GET_LOCATION);
    observer.attemptEnd?.({ attempt: 1, durationMs: 5, status: 503, requestId: 'req_attempt' });
    observer.end?.({ attempts: 1, durationMs: 5, status: 404, requestId: 'req_end', error });
    expect(otel.spans()[0]?.attributes).toMatchObject({
      'crp.request_id': 'req_end',
      'http.response.status_code': 404,
      'error.type': '404',
    });
  });

  it('a failure without a response (timeouts after retries): error.type is the SDK code', async () => {
    const timeout = () => new TimeoutError('The call took longer than 100 ms', { request });
    drive(telemetry(), [
      { attempt: { error: timeout() } },
      { retry: 'timeout', waitMs: 100 },
      { wait: 'backoff', ms: 100 },
      { attempt: { error: timeout() } },
    ]);
    const [span] = otel.spans();
    expect(span?.attributes).toMatchObject({
      'error.type': 'timeout',
      'crp.error.code': 'timeout',
      'crp.attempts': 2,
      'http.request.resend_count': 1,
    });
    expect(span?.attributes).not.toHaveProperty('http.response.status_code');
    expect(events(span)[0]?.attributes).toEqual({
      'crp.attempt': 1,
      'crp.retry.reason': 'timeout',
      'crp.retry.wait_ms': 100,
    });
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("a list walk (one call per page) gives one span per page, each a child of the caller's span", async () => {
    const t = telemetry();
    const tracer = otel.tracerProvider.getTracer('partner-app');
    const list = { ...GET_LOCATION, operation: 'reservations.list', urlTemplate: '/partner/v1/reservations' };
    await tracer.startActiveSpan('nightly-sync', async (parent) => {
      for (let page = 1; page <= 3; page++) {
        await Promise.resolve();
        drive(t, [{ attempt: { status: 200, requestId: `req_${page}` } }], list);
      }
      parent.end();
    });
    const spans = otel.spans();
    const root = spans.find((s) => s.name === 'nightly-sync');
    const pages = spans.filter((s) => s.name === 'reservations.list');
    expect(pages.map((s) => s.attributes['crp.request_id'])).toEqual(['req_1', 'req_2', 'req_3']);
    for (const page of pages) {
      expect(page.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
      expect(page.spanContext().traceId).toBe(root?.spanContext().traceId);
    }
    expect(points((await otel.metrics()).get('crp.client.calls'))[0]?.value).toBe(3);
  });
});

describe('trace context on every attempt', () => {
  it("injects W3C traceparent naming the call's span into each attempt's headers", () => {
    const sent = drive(telemetry(), [
      {
        attempt: {
          status: 503,
          error: new InternalServerError({ status: 503, code: 'internal_error', message: 'down', request }),
        },
      },
      { retry: 'internal_error', waitMs: 10 },
      { attempt: { status: 200 } },
    ]);
    const [span] = otel.spans();
    const expected = `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`;
    expect(sent.map((h) => h.traceparent)).toEqual([expected, expected]);
    // Nothing else of the headers is touched.
    expect(sent[0]?.accept).toBe('application/json');
  });

  it('uses the registered propagator: without one nothing is injected', () => {
    unregisterGlobals();
    try {
      const [headers] = drive(telemetry(), [{ attempt: { status: 200 } }]);
      expect(headers).toEqual({ accept: 'application/json' });
      expect(otel.spans()).toHaveLength(1);
    } finally {
      registerGlobals();
    }
  });
  it('a propagator that throws costs the attempt its trace context, never the call', () => {
    // The API keeps the first propagator registered until it is disabled.
    propagation.disable();
    propagation.setGlobalPropagator({
      inject: () => {
        throw new Error('broken propagator');
      },
      extract: (ctx) => ctx,
      fields: () => [],
    });
    try {
      const sent = drive(telemetry(), [{ attempt: { status: 200 } }]);
      expect(sent).toEqual([{ accept: 'application/json' }]);
      expect(otel.spans()).toHaveLength(1);
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });
});

describe('providers', () => {
  it('defaults to the global providers, including a meter provider registered after openTelemetry()', async () => {
    const early = openTelemetry();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    try {
      drive(early, [{ attempt: { status: 200, remaining: 42 } }]);
      expect(otel.spans().map((s) => s.name)).toEqual(['locations.get']);
      expect(points((await otel.metrics()).get('crp.client.rate_limit.remaining'))[0]?.value).toBe(42);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('with no OpenTelemetry SDK registered everything is a no-op that does not throw', () => {
    const sent = drive(openTelemetry(), [{ wait: 'rate_budget', ms: 5 }, { attempt: { status: 200, remaining: 1 } }]);
    expect(sent).toEqual([{ accept: 'application/json' }]);
    expect(otel.spans()).toEqual([]);
  });

  it('keeps the active context of the caller untouched', () => {
    const before = context.active();
    drive(telemetry(), [{ attempt: { status: 200 } }]);
    expect(context.active()).toBe(before);
  });
});

describe('what never appears', () => {
  it("no error message (it may quote the service's text or the caller's input) in any attribute, event or metric", async () => {
    const secret = 'Bearer crp_test_SECRET and a body {"name":"Noodle Bar"}';
    const error = new NotFoundError({ status: 404, code: 'not_found', message: secret, requestId: 'req_1', request });
    drive(telemetry(), [
      { attempt: { status: 404, error } },
      { retry: 'not_found', waitMs: 1 },
      { attempt: { status: 404, requestId: 'req_2', error } },
    ]);
    const text = await otel.exportedText();
    expect(text).toContain('not_found');
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('Noodle');
  });
});
