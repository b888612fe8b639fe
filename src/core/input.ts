import type * as z from 'zod/mini';
import { check } from '../schemas/validate.js';
import { ValidationError } from './errors.js';

/**
 * Refuse input the service would refuse, before anything is sent, with the same error class and
 * `field` the service would give, so callers need one branch for both.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, root?: string): z.infer<S> {
  const result = check(schema, value, root);
  if (result.ok) return result.value;
  throw new ValidationError({
    status: 400,
    code: 'validation_error',
    message: `${result.problem.message}. Nothing was sent.`,
    field: result.problem.field,
  });
}
