import { describe, expect, it } from 'vitest';
import { adviseOn, attempt, errorTour } from '../../examples/error-handling.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/error-handling.ts', () => {
  let env: ExampleEnv;
  const startExampleEnv = useExampleEnv();

  it('tells each error apart by class and code and says what to do, without the key', async () => {
    env = await startExampleEnv({}, { clock: fakeClock() });
    const lines: string[] = [];
    const seen = await errorTour(env.client, (line) => lines.push(line));

    expect(Object.keys(seen)).toEqual(['validation', 'not found', 'conflict', 'aborted']);
    expect(seen.validation).toMatchObject({
      action: 'fix_input',
      summary: expect.stringContaining('[field address.country]'),
    });
    expect(seen['not found']).toMatchObject({
      action: 'ignore',
      summary: expect.stringMatching(
        /^NotFoundError \(not_found\): .*GET \/partner\/v1\/locations\/errors-no-such-store/,
      ),
    });
    expect(seen.conflict).toMatchObject({
      action: 'fix_input',
      summary: expect.stringContaining('ConflictError (conflict)'),
    });
    expect(seen.aborted?.action).toBe('ignore');
    expect(lines.join('\n')).not.toContain(env.apiKey);
    expect(lines.find((l) => l.startsWith('log line:'))).toMatch(/"requestId":"req_/);
  });

  it('advises a later retry for server failures the SDK already retried, and for a long Retry-After', async () => {
    env = await startExampleEnv({}, { clock: fakeClock() });
    env.sandbox.faults.next({ status: 503, times: 3, path: '/partner/v1/summary' });
    const failed = await attempt(() => env.client.reports.summary());
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.advice).toMatchObject({
      action: 'retry_later',
      summary: expect.stringMatching(/^InternalServerError \(unavailable\): .*\[after 3 attempt\(s\)\]$/),
    });

    env.sandbox.faults.next({ status: 429, headers: { 'Retry-After': '120' }, path: '/partner/v1/summary' });
    const limited = await attempt(() => env.client.reports.summary());
    expect(limited.ok ? undefined : limited.advice).toMatchObject({ action: 'retry_later', retryAfterMs: 120_000 });

    expect(() => adviseOn(new TypeError('a bug'))).toThrow('a bug');
  });
});
