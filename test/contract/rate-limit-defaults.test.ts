/**
 * A sandbox rate limit given in part keeps the defaults for the rest (issue 21, part 2): the
 * default never clashes with a value the caller gave, and only a given value is refused, by name.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';

const call = (sandbox: ReturnType<typeof createSandbox>, key: string) =>
  sandbox.handle(
    new Request('https://sandbox.test/partner/v1/summary', { headers: { authorization: `Bearer ${key}` } }),
  );

describe('sandbox rate limits given in part', () => {
  it('createSandbox({ rateLimit: { limit } }) keeps the default one-minute window', async () => {
    const sandbox = createSandbox({ rateLimit: { limit: 2 } });
    const key = sandbox.issueKey();
    const first = await call(sandbox, key);
    expect(first.headers.get('ratelimit-policy')).toBe('2;w=60');
    await call(sandbox, key);
    expect((await call(sandbox, key)).status).toBe(429);
  });

  it('createSandbox({ rateLimit: { windowMs } }) keeps the default limit of 600', async () => {
    const sandbox = createSandbox({ rateLimit: { windowMs: 10_000 } });
    const answer = await call(sandbox, sandbox.issueKey());
    expect(answer.headers.get('ratelimit-policy')).toBe('600;w=10');
  });

  it('issueKey({ rateLimit: { windowMs } }) takes the rest from the sandbox’s own rateLimit', async () => {
    const sandbox = createSandbox({ rateLimit: { limit: 5, windowMs: 30_000 } });
    const answer = await call(sandbox, sandbox.issueKey({ rateLimit: { windowMs: 1_000 } }));
    expect(answer.headers.get('ratelimit-policy')).toBe('5;w=1');
  });

  it('the control API takes a rate limit in part too', async () => {
    const sandbox = createSandbox({ rateLimit: { limit: 7 } });
    const issued = await sandbox.handle(
      new Request('https://sandbox.test/_sandbox/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rateLimit: { windowMs: 5_000 } }),
      }),
    );
    expect(issued.status).toBe(201);
    const { key } = (await issued.json()) as { key: string };
    expect((await call(sandbox, key)).headers.get('ratelimit-policy')).toBe('7;w=5');
  });

  it.each([
    [{ limit: 0 }, 'createSandbox: rateLimit.limit must be a whole number of 1 or more; got 0'],
    [{ limit: 2.5, windowMs: 1000 }, 'createSandbox: rateLimit.limit must be a whole number of 1 or more; got 2.5'],
    [{ windowMs: -1 }, 'createSandbox: rateLimit.windowMs must be a number of milliseconds above 0; got -1'],
  ])('refuses only a value given: %j', (rateLimit, message) => {
    expect(() => createSandbox({ rateLimit })).toThrow(new RangeError(message));
  });
});
