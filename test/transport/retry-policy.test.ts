import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../src/core/error-from-response.js';
import { mayHaveActed, mayRetry } from '../../src/core/retry-policy.js';
import {
  AbortedError,
  ConnectionError,
  HookError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/index.js';

// The rules for statuses, connections and time-outs are tested end to end (write-safety.test.ts,
// retries.test.ts); these are the failures no rule names, which are never repeated, safe or not.
describe('mayRetry: failures no rule names', () => {
  const unnamed: Array<[string, unknown]> = [
    [
      'an answer the SDK cannot read (the service acted)',
      new UnexpectedResponseError('The body is not JSON.', { status: 200, requestId: undefined }),
    ],
    ["the caller's abort", new AbortedError('Stopped by the caller.')],
    ['a hook of the caller that threw', new HookError('The hook threw.', 'beforeRequest')],
    [
      'input refused before sending',
      new ValidationError({ status: 400, code: 'validation_error', message: 'Bad input.' }),
    ],
    ['a plain Error', new Error('boom')],
    ['not an error at all', 'boom'],
  ];
  for (const [what, error] of unnamed) {
    it(`${what}: not repeated, even for a safe call`, () => {
      expect(mayRetry(error, 'safe')).toBe(false);
      expect(mayRetry(error, 'unsafe')).toBe(false);
    });
  }
});

// Which failed attempt lets a later 409 be read as the first attempt's own effect (RequestSpec.settle).
describe('mayHaveActed: a failure after which the service may have acted', () => {
  const answer = (status: number, body = '{"code":"x","message":"m"}') =>
    errorFromResponse({
      status,
      headers: new Headers({ 'content-type': 'application/json' }),
      body,
      request: { method: 'POST', path: '/x' } as never,
    });
  const cases: Array<[string, unknown, boolean]> = [
    ["the service's 500", answer(500), true],
    ["a gateway's 502 page", answer(502, '<html>Bad Gateway</html>'), true],
    ['a 504', answer(504), true],
    ["a 503 (the service's word that it did not act)", answer(503), false],
    ['a 409', answer(409), false],
    ['a 429', answer(429), false],
    ['a time-out', new TimeoutError('Timed out.'), true],
    ['a connection dropped after sending', new ConnectionError('Dropped.', true), true],
    ['a connection refused before sending', new ConnectionError('Refused.', false), false],
    [
      'an answer that could not be read',
      new UnexpectedResponseError('Not JSON.', { status: 200, requestId: undefined }),
      false,
    ],
    ['a plain Error', new Error('boom'), false],
  ];
  for (const [what, error, expected] of cases) {
    it(`${what}: ${expected}`, () => expect(mayHaveActed(error)).toBe(expected));
  }
});
