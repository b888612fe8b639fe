/**
 * What arrives from things in front of the service (proxies, load balancers, a broken network),
 * over a real HTTP port: the typed error a partner branches on, and a message that says what
 * happened and what to do. The messages are checked whole: they are what an on-call engineer reads.
 */
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PartnerApiError,
  RateLimitError,
  ValidationError,
} from '../../src/index.js';
import { cleanText } from '../../src/core/sanitize.js';
import { useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_foreign-answers-0123456789';
const { server, client } = useScriptedServer(KEY, { maxRetries: 0 });
const WHERE = 'GET /partner/v1/thing';
const failure = async (c = client()) =>
  c.request({ method: 'GET', path: '/thing' }).then(
    () => undefined,
    (e: unknown) => e as PartnerApiError,
  );
const FAILED =
  'The service or a proxy in front of it failed; a read can be tried again later, a write only after checking whether it took effect.';
const HTML = 'an HTML page (likely from a proxy or load balancer)';
const NOT_JSON = 'a body that is not the service’s JSON error';

describe('error answers without the service’s JSON error body', () => {
  it.each([
    [
      'a load balancer’s 502 page',
      502,
      { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'lb-7' },
      '<html><body>Bad Gateway</body></html>',
      InternalServerError,
      'bad_gateway',
      `The service answered HTTP 502 with ${HTML}. ${FAILED} (502 bad_gateway from ${WHERE}, request lb-7)`,
    ],
    [
      'an HTML page sent as text/plain, after blank lines',
      500,
      { 'content-type': 'text/plain' },
      '\n   <!DOCTYPE html><title>oops</title>',
      InternalServerError,
      'internal_error',
      `The service answered HTTP 500 with ${HTML}. ${FAILED} (500 internal_error from ${WHERE})`,
    ],
    [
      'plain text that mentions a tag',
      503,
      { 'content-type': 'text/plain' },
      'upstream said <no>',
      InternalServerError,
      'unavailable',
      `The service answered HTTP 503 with ${NOT_JSON}. ${FAILED} (503 unavailable from ${WHERE})`,
    ],
    [
      'an empty 404',
      404,
      {},
      '',
      NotFoundError,
      'not_found',
      `The service answered HTTP 404 with an empty body. Check the id. (404 not_found from ${WHERE})`,
    ],
    [
      'a 400 of blank lines',
      400,
      {},
      ' \n\t ',
      ValidationError,
      'validation_error',
      `The service answered HTTP 400 with an empty body. Check the request input. (400 validation_error from ${WHERE})`,
    ],
    [
      'JSON that is not the error shape',
      400,
      {},
      '{"message":"nope"}',
      ValidationError,
      'validation_error',
      `The service answered HTTP 400 with ${NOT_JSON}. Check the request input. (400 validation_error from ${WHERE})`,
    ],
    [
      'truncated JSON',
      409,
      {},
      '{"error":{"code":"conf',
      ConflictError,
      'conflict',
      `The service answered HTTP 409 with ${NOT_JSON}. Read the current state and try again. (409 conflict from ${WHERE})`,
    ],
    [
      'a status no one documents',
      418,
      {},
      '',
      PartnerApiError,
      'unknown_api_error',
      `The service answered HTTP 418 with an empty body. (418 from ${WHERE})`,
    ],
    [
      'a 5xx no one documents',
      599,
      {},
      '',
      InternalServerError,
      'internal_error',
      `The service answered HTTP 599 with an empty body. ${FAILED} (599 internal_error from ${WHERE})`,
    ],
  ] as const)('%s', async (_, status, headers, body, ErrorClass, code, message) => {
    server.script({ status, headers, body });
    const error = await failure();
    // Each class in the table is the exact one, not only a parent of it.
    expect(error?.constructor).toBe(ErrorClass);
    expect(error).toMatchObject({ status, code });
    expect(error?.message).toBe(message);
  });

  it('a 429 whose JSON names a code of its own is still a RateLimitError, its code rate_limited and the service’s in serviceCode', async () => {
    server.script({
      status: 429,
      body: JSON.stringify({ error: { code: 'slow_down', message: 'Burst limit reached' } }),
    });
    const error = await failure();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      serviceCode: 'slow_down',
      message: `Burst limit reached (429 slow_down from ${WHERE})`,
    });
  });

  it('a code this version does not know reaches a plain PartnerApiError, code unknown_api_error, the service’s code in serviceCode', async () => {
    server.script({
      status: 409,
      body: JSON.stringify({ error: { code: 'store_merged', message: 'Merged into store-2' } }),
    });
    const error = await failure();
    expect(error?.constructor).toBe(PartnerApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'unknown_api_error',
      serviceCode: 'store_merged',
      message: `Merged into store-2 (409 store_merged from ${WHERE})`,
    });
    expect(error?.toJSON()).toMatchObject({ code: 'unknown_api_error', serviceCode: 'store_merged' });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a code named like an Object member (%s) is an unknown code, not Object’s',
    async (code) => {
      server.script({ status: 400, body: JSON.stringify({ error: { code, message: 'odd' } }) });
      const error = await failure();
      expect(error?.constructor).toBe(PartnerApiError);
      expect(error).toMatchObject({ code: 'unknown_api_error', serviceCode: code });
    },
  );

  it('a rate_limited code on another status is a RateLimitError too', async () => {
    server.script({ status: 403, body: JSON.stringify({ error: { code: 'rate_limited', message: 'Quota used up' } }) });
    const error = await failure();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 403, code: 'rate_limited' });
  });
});

describe('a network that fails under fetch', () => {
  /** fetch rejects as undici does: a TypeError whose causes carry the system error. */
  const failingFetch = (error: unknown) => () => Promise.reject(error);
  const chain = (...links: Array<{ message: string; code?: string }>) =>
    links.reduceRight<Error | undefined>(
      (cause, { message, code }) => Object.assign(new Error(message, cause ? { cause } : {}), code ? { code } : {}),
      undefined,
    );

  it('a refused connection names the system error and says nothing was sent', async () => {
    const thrown = Object.assign(
      new TypeError('fetch failed', {
        cause: chain({ message: 'connect ECONNREFUSED 10.0.0.1:443', code: 'ECONNREFUSED' }),
      }),
    );
    const error = (await failure(client({ fetch: failingFetch(thrown) }))) as unknown as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `Could not complete ${WHERE}: fetch failed: ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:443. The service was not reached; check the base URL and network.`,
    );
    expect(error.mayHaveReachedServer).toBe(false);
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).name).toBe('TypeError');
    expect((error.cause as Error).message).toBe('fetch failed: ECONNREFUSED: connect ECONNREFUSED 10.0.0.1:443');
    // Only its name and message: none of the foreign error's properties (a request, its headers).
    expect(Object.keys(error.cause as object)).toEqual(['name']);
  });

  it('a reset connection may have reached the service; causes are followed four deep, repeats said once', async () => {
    const thrown = chain(
      { message: 'fetch failed' },
      { message: 'other side closed', code: 'UND_ERR_SOCKET' },
      { message: 'read ECONNRESET', code: 'ECONNRESET' },
      { message: 'read ECONNRESET', code: 'ECONNRESET' },
      { message: 'fifth, not shown' },
    );
    const error = (await failure(client({ fetch: failingFetch(thrown) }))) as unknown as ConnectionError;
    expect(error.message).toBe(
      `Could not complete ${WHERE}: fetch failed: UND_ERR_SOCKET: other side closed: ECONNRESET: read ECONNRESET. The connection failed; the service may or may not have acted on it.`,
    );
    expect(error.mayHaveReachedServer).toBe(true);
  });

  it('an empty message adds nothing to the code beside it', async () => {
    const error = (await failure(
      client({ fetch: failingFetch(Object.assign(new Error(''), { code: 'EPIPE' })) }),
    )) as unknown as ConnectionError;
    expect(error.message).toBe(
      `Could not complete ${WHERE}: EPIPE. The connection failed; the service may or may not have acted on it.`,
    );
  });

  it('something thrown that says nothing is a network error, its copy an Error', async () => {
    const error = (await failure(client({ fetch: failingFetch({ message: '' }) }))) as unknown as ConnectionError;
    expect(error.message).toBe(
      `Could not complete ${WHERE}: network error. The connection failed; the service may or may not have acted on it.`,
    );
    expect((error.cause as Error).name).toBe('Error');
    expect((error.cause as Error).message).toBe('network error');
  });
});

describe('cleanText, for text from the other side', () => {
  const secret = 'crp_test_secret-0123456789';
  it('leaves a plain token as it is, up to the cap exactly', () => {
    expect(cleanText('req_0123456789', secret, 14)).toBe('req_0123456789');
  });
  it('caps a plain token one character over the cap', () => {
    expect(cleanText('x'.repeat(11), secret, 10)).toBe(`${'x'.repeat(10)}…`);
  });
  it('redacts the key even in a plain token (a request id that echoes it)', () => {
    expect(cleanText(`id-${secret}`, secret, 100)).toBe('id-[redacted]');
  });
  it('leaves cleaned text of exactly the cap as it is', () => {
    expect(cleanText('a\tb', undefined, 3)).toBe('a b');
  });
  it('collapses runs of spaces and trims the ends', () => {
    expect(cleanText('  two \t\n words  ', undefined)).toBe('two words');
  });
  it('removes ANSI sequences and turns control characters into spaces', () => {
    expect(cleanText('\u001b[31mred\u001b[0m\u0007bell\u202eflip', undefined)).toBe('red bell flip');
  });
});
