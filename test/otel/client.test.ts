/**
 * `@crp/partner-sdk/otel` end to end: real clients against the sandbox (msw in-process and a real
 * port), the OpenTelemetry SDK's in-memory exporters, and the headers as the server received them.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type ClientOptions, type PartnerClient } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { address, TRANSPORTS } from '../helpers/sdk-env.js';
import { realClock } from '../../src/core/clock.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { createHarness, events, points, registerGlobals, unregisterGlobals, type OtelHarness } from './harness.js';
import { startRecordingEnv, type RecordingEnv } from './recording-env.js';

const SUMMARY = '/partner/v1/summary';

describe.each(TRANSPORTS)('OpenTelemetry with real clients (%s)', (kind) => {
  let env: RecordingEnv;
  let otel: OtelHarness;
  beforeAll(async () => {
    registerGlobals();
    env = await startRecordingEnv(kind);
  });
  afterAll(async () => {
    await env.close();
    unregisterGlobals();
  });
  beforeEach(() => {
    otel = createHarness();
    env.clearReceived();
  });
  afterEach(() => otel.shutdown());

  const traced = (options: ClientOptions = {}): PartnerClient =>
    env.client({
      telemetry: openTelemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider }),
      ...options,
    });
  const server = () => new URL(env.baseUrl);
  const lastLogged = () => env.sandbox.requests.at(-1);

  it('a plain call: one CLIENT span with the route template, status, request id and attempts; its metrics', async () => {
    await env
      .client()
      .locations.enroll({ partner_location_id: `plain-${kind}`, name: 'Plain Noodles', address: address(1) });
    const client = traced();
    const { response } = await client.locations.get(`plain-${kind}`).withResponse();
    const [span, ...more] = otel.spans();
    expect(more).toEqual([]);
    expect(span?.name).toBe('locations.get');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': server().hostname,
      'server.port': Number(server().port || 443),
      'url.template': '/partner/v1/locations/{partner_location_id}',
      'http.response.status_code': 200,
      'crp.request_id': response.requestId,
      'crp.attempts': 1,
      'crp.rate_limit.remaining': client.rateLimit?.remaining,
    });
    expect(span?.attributes['crp.request_id']).toBe(lastLogged()?.requestId);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    const recorded = await otel.metrics();
    expect(points(recorded.get('crp.client.calls'))).toEqual([
      {
        attributes: { 'crp.operation': 'locations.get', 'crp.outcome': 'success', 'http.response.status_code': 200 },
        value: 1,
      },
    ]);
    expect(points(recorded.get('crp.client.rate_limit.remaining'))).toEqual([
      { attributes: { 'server.address': server().hostname }, value: client.rateLimit?.remaining },
    ]);
  });

  it('a retried call: one span, two attempts, a retry event with the failed attempt, the backoff wait', async () => {
    const clock = fakeClock();
    const client = traced({ clock });
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    await client.reports.summary();
    const [span, ...more] = otel.spans();
    expect(more).toEqual([]);
    expect(span?.name).toBe('reports.summary');
    expect(span?.attributes).toMatchObject({
      'crp.attempts': 2,
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
    });
    const [failed] = env.sandbox.requests.filter((r) => r.path === SUMMARY && r.status === 503).slice(-1);
    const retry = events(span).find((e) => e.name === 'crp.retry');
    expect(retry?.attributes).toMatchObject({
      'crp.attempt': 1,
      'http.response.status_code': 503,
      'crp.request_id': failed?.requestId,
    });
    expect(typeof retry?.attributes?.['crp.retry.reason']).toBe('string');
    const backoff = events(span).filter(
      (e) => e.name === 'crp.wait' && e.attributes?.['crp.wait.reason'] === 'backoff',
    );
    expect(backoff).toHaveLength(1);
    expect(backoff[0]?.attributes?.['crp.wait.duration_ms']).toBe(clock.sleeps[0]);
    const recorded = await otel.metrics();
    expect(points(recorded.get('crp.client.retries')).map((p) => p.value)).toEqual([1]);
  });

  it('a 429 with Retry-After: a retry_after wait of that length, the 429 counted', async () => {
    const client = traced();
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '2' }, times: 1, path: SUMMARY });
    await client.reports.summary();
    const [span] = otel.spans();
    const waits = events(span).filter((e) => e.name === 'crp.wait');
    expect(waits.map((e) => e.attributes?.['crp.wait.reason'])).toContain('retry_after');
    expect(
      waits.find((e) => e.attributes?.['crp.wait.reason'] === 'retry_after')?.attributes?.['crp.wait.duration_ms'],
    ).toBeGreaterThan(1_000);
    const recorded = await otel.metrics();
    expect(points(recorded.get('crp.client.rate_limited'))).toEqual([
      { attributes: { 'crp.operation': 'reports.summary' }, value: 1 },
    ]);
    expect(points(recorded.get('crp.client.wait.duration')).map((p) => p.attributes['crp.wait.reason'])).toContain(
      'retry_after',
    );
  });

  it("a pause another call received: the waiting call's span shows a shared_pause wait of the Retry-After", async () => {
    const client = traced();
    env.sandbox.faults.next({ status: 429, headers: { 'retry-after': '1' }, times: 1, path: SUMMARY });
    await Promise.all([client.reports.summary(), client.settings.get()]);
    const settings = otel.spans().find((s) => s.name === 'settings.get');
    expect(events(settings)).toEqual([
      { name: 'crp.wait', attributes: { 'crp.wait.reason': 'shared_pause', 'crp.wait.duration_ms': 1000 } },
    ]);
    expect(settings?.attributes).toMatchObject({ 'crp.attempts': 1, 'http.response.status_code': 200 });
    const waits = points((await otel.metrics()).get('crp.client.wait.duration'));
    expect(waits.find((p) => p.attributes['crp.wait.reason'] === 'shared_pause')?.attributes).toEqual({
      'crp.operation': 'settings.get',
      'crp.wait.reason': 'shared_pause',
    });
  });

  it('a wait for the rate budget: a rate_budget wait event and time waited in the histogram', async () => {
    const key = env.sandbox.issueKey({ rateLimit: { limit: 2, windowMs: 400 } });
    const limitedBefore = env.sandbox.requestCount({ status: 429 });
    const client = traced({ apiKey: key, clock: realClock });
    for (let i = 0; i < 3; i++) await client.reports.summary();
    const budgetWaits = otel
      .spans()
      .flatMap((s) => events(s))
      .filter((e) => e.name === 'crp.wait' && e.attributes?.['crp.wait.reason'] === 'rate_budget');
    expect(budgetWaits.length).toBeGreaterThanOrEqual(1);
    expect(Number(budgetWaits.at(-1)?.attributes?.['crp.wait.duration_ms'])).toBeGreaterThan(100);
    const waited = points((await otel.metrics()).get('crp.client.wait.duration')).find(
      (p) => p.attributes['crp.wait.reason'] === 'rate_budget',
    );
    expect((waited!.value as { sum: number }).sum).toBeGreaterThan(0.1);
    expect(env.sandbox.requestCount({ status: 429 })).toBe(limitedBefore);
  });

  it('a failure: span status ERROR, error.type the status, the request id of the error', async () => {
    const client = traced();
    const error = await client.locations.get('no-such-store').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const [span] = otel.spans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NotFoundError (not_found)' });
    expect(span?.attributes).toMatchObject({
      'error.type': '404',
      'crp.error.code': 'not_found',
      'http.response.status_code': 404,
      'crp.request_id': (error as NotFoundError).requestId,
    });
    const calls = points((await otel.metrics()).get('crp.client.calls'));
    expect(calls).toEqual([
      {
        attributes: {
          'crp.operation': 'locations.get',
          'crp.outcome': 'error',
          'http.response.status_code': 404,
          'error.type': '404',
          'crp.error.code': 'not_found',
        },
        value: 1,
      },
    ]);
  });

  it("a list walk: one span per page, each a child of the caller's span, each request carrying its own page span", async () => {
    const client = traced();
    for (let i = 0; i < 2; i++)
      await client.locations.enroll({
        partner_location_id: `walk-${kind}-${i}`,
        name: `Walk ${i}`,
        address: address(i + 2),
      });
    env.sandbox.clock.advance({ days: 21 });
    otel.reset();
    env.clearReceived();
    const tracer = otel.tracerProvider.getTracer('partner-app');
    let pagesRead = 0;
    await tracer.startActiveSpan('sync', async (root) => {
      for await (const page of client.reservations.list({ limit: 2 }).pages()) {
        expect(page.items.length).toBeGreaterThan(0);
        if (++pagesRead === 3) break;
      }
      root.end();
    });
    expect(pagesRead).toBe(3);
    const spans = otel.spans();
    const root = spans.find((s) => s.name === 'sync');
    const pages = spans.filter((s) => s !== root);
    expect(pages.map((s) => s.name)).toEqual(['reservations.list', 'reservations.list', 'reservations.list']);
    expect(env.received).toHaveLength(3);
    expect(new Set(pages.map((s) => s.attributes['crp.request_id'])).size).toBe(3);
    for (const [i, page] of pages.entries()) {
      expect(page.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
      expect(env.received[i]?.headers.traceparent).toBe(
        `00-${root?.spanContext().traceId}-${page.spanContext().spanId}-01`,
      );
    }
  });

  it('trace propagation: every attempt the server receives carries traceparent naming the call span', async () => {
    const client = traced();
    env.sandbox.faults.next({ status: 503, times: 2, path: SUMMARY });
    await client.reports.summary();
    const [span] = otel.spans();
    const attempts = env.received.filter((r) => r.path === SUMMARY);
    expect(attempts).toHaveLength(3);
    const expected = `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`;
    expect(attempts.map((r) => r.headers.traceparent)).toEqual([expected, expected, expected]);
  });

  it('without telemetry nothing is injected and nothing is recorded', async () => {
    const client = env.client();
    await trace.getTracer('x').startActiveSpan('outer', async (s) => {
      await client.reports.summary();
      s.end();
    });
    expect(env.received.at(-1)?.headers).not.toHaveProperty('traceparent');
    expect(otel.spans()).toEqual([]);
  });

  it('the key, the bodies sent and received, and error messages appear in no span, event or metric', async () => {
    const client = traced();
    const name = `Secret Dumplings ${kind}`;
    const store = await client.locations.enroll({
      partner_location_id: `secret-${kind}`,
      name,
      address: { ...address(9), line1: '77 Hidden Lane' },
    });
    env.sandbox.faults.next({ status: 503, times: 1, path: SUMMARY });
    await client.reports.summary();
    const error = (await client.locations.get('missing-store-x').catch((e: unknown) => e)) as NotFoundError;
    await client.reservations.list({ limit: 1 });
    const text = await otel.exportedText();
    expect(otel.spans().length).toBeGreaterThanOrEqual(4);
    for (const secret of [
      env.key,
      env.key.slice(-12),
      name,
      '77 Hidden Lane',
      store.time_zone ?? 'no-tz',
      error.message,
      'missing-store-x',
      `secret-${kind}`,
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
