/**
 * Which failures a call is sent again after, counted at a real HTTP server: a write not known to
 * be safe is repeated only where the service itself said it did not act (429; its own 500 or 503),
 * never on a gateway's word (502, 504, a proxy's page), a time-out or a dropped connection.
 */
import { describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../src/index.js';
import { steppingClock, useScriptedServer, type Scripted } from './scripted-server.js';

const KEY = 'crp_test_write-safety-0123456789';
const { server, client } = useScriptedServer(KEY, { maxRetries: 1, rateLimit: false, timeout: 10_000 });

const BATCH = JSON.stringify({ batch_id: 'b-2', status: 'approved', creators: [], created_at: '2026-11-23T12:00:00Z' });
const serviceError = (code: string) => JSON.stringify({ error: { code, message: `${code} (ref 7F3A9C21)` } });
const proxyPage = (status: number) =>
  `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`;

const CALLS = {
  'client.request POST without retrySafe': {
    safe: false,
    send: (c: PartnerClient) => c.request({ method: 'POST', path: '/things/t-1/act', body: { n: 1 } }),
  },
  'client.request POST with retrySafe: true': {
    safe: true,
    send: (c: PartnerClient) => c.request({ method: 'POST', path: '/things/t-1/act', body: { n: 1 }, retrySafe: true }),
  },
  'creators.decideSamples': {
    safe: false,
    send: (c: PartnerClient) => c.creators.decideSamples('store-1', 'b-1', 'new_batch'),
  },
} as const;

type Failure = [what: string, answer: Scripted, repeatedWhenUnsafe: boolean, timeout?: number];

const FAILURES: Failure[] = [
  ['429 with Retry-After', { status: 429, headers: { 'retry-after': '1' }, body: serviceError('rate_limited') }, true],
  ['429 without Retry-After', { status: 429, body: serviceError('rate_limited') }, true],
  ['the service’s 500', { status: 500, body: serviceError('internal_error') }, true],
  ['the service’s 503', { status: 503, body: serviceError('unavailable') }, true],
  ['a 503 with a code this version does not know', { status: 503, body: serviceError('maintenance') }, true],
  ['a 502 in the service’s shape', { status: 502, body: serviceError('bad_gateway') }, false],
  ['a 504 in the service’s shape', { status: 504, body: serviceError('gateway_timeout') }, false],
  ['a proxy’s 502 page', { status: 502, headers: { 'content-type': 'text/html' }, body: proxyPage(502) }, false],
  ['a proxy’s 504 page', { status: 504, headers: { 'content-type': 'text/html' }, body: proxyPage(504) }, false],
  ['a proxy’s 500 page', { status: 500, headers: { 'content-type': 'text/html' }, body: proxyPage(500) }, false],
  ['a proxy’s 503 page', { status: 503, headers: { 'content-type': 'text/html' }, body: proxyPage(503) }, false],
  ['an empty 503', { status: 503, body: '' }, false],
  // The answer comes long after the time-out, so a slow machine cannot blur the two.
  ['a time-out', { delayMs: 3_000 }, false, 400],
  ['a connection dropped after the request was sent', { drop: true }, false],
];

const CASES = Object.entries(CALLS).flatMap(([call, { safe, send }]) =>
  FAILURES.map(([what, answer, repeatedWhenUnsafe, timeout]) => {
    const repeated = safe || repeatedWhenUnsafe;
    return { name: `${call}: ${what} → ${repeated ? 'sent again' : 'sent once'}`, send, answer, repeated, timeout };
  }),
);

describe('a failed call is sent again only when that cannot act twice', () => {
  it.each(CASES)('$name', async ({ send, answer, repeated, timeout }) => {
    server.script(answer);
    server.fallback = { status: 200, body: BATCH };
    const outcome = await send(client({ clock: steppingClock(0.5), ...(timeout ? { timeout } : {}) })).then(
      () => 'succeeded',
      (error: unknown) => error,
    );
    expect(server.received.length).toBe(repeated ? 2 : 1);
    if (repeated) expect(outcome).toBe('succeeded');
    else expect(outcome).toMatchObject({ attempts: 1 });
  });
});
