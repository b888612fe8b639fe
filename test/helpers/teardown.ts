import { afterEach } from 'vitest';

/**
 * In a `describe` (or at a file's top): `start` wrapped so that every environment it starts is
 * closed after each test, whether the test passed or not.
 */
export function closedAfterEach<A extends unknown[], E extends { close(): Promise<void> }>(
  start: (...args: A) => Promise<E>,
): (...args: A) => Promise<E> {
  const started: E[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((env) => env.close()));
  });
  return async (...args) => {
    const env = await start(...args);
    started.push(env);
    return env;
  };
}
