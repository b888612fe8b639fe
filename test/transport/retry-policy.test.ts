import { describe, expect, it } from 'vitest';
import { mayRetry } from '../../src/core/retry-policy.js';
import { AbortedError, HookError, UnexpectedResponseError, ValidationError } from '../../src/index.js';

// The rules for statuses, connections and time-outs are tested end to end (write-safety.test.ts,
// retries.test.ts); these are the failures no rule names, which are never repeated, safe or not.
describe('mayRetry: failures no rule names', () => {
  const unnamed: Array<[string, unknown]> = [
    ['an answer the SDK cannot read (the service acted)', new UnexpectedResponseError('The body is not JSON.', { status: 200, requestId: undefined })],
    ["the caller's abort", new AbortedError('Stopped by the caller.')],
    ['a hook of the caller that threw', new HookError('The hook threw.', 'beforeRequest')],
    ['input refused before sending', new ValidationError({ status: 400, code: 'validation_error', message: 'Bad input.' })],
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
