import { expect } from 'vitest';
import { ValidationError } from '../../src/index.js';
import type { SdkEnv } from './sdk-env.js';

/**
 * The ValidationError `call` rejects with (or throws), checked to have sent nothing: the sandbox's
 * request log holds no more requests after it than before.
 */
export async function refusedUnsent(env: SdkEnv, call: () => PromiseLike<unknown>): Promise<ValidationError> {
  const before = env.sandbox.requests.length;
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).requestId).toBeUndefined();
  expect(env.sandbox.requests.length).toBe(before);
  return error as ValidationError;
}
