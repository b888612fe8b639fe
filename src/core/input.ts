import type * as z from 'zod/mini';
import { check } from '../schemas/validate.js';
import { refusedBeforeSending } from './refusal.js';

/**
 * Refuse input the service would refuse, before anything is sent, with the same error class and
 * `field` the service would give, so callers need one branch for both.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, root?: string): z.infer<S> {
  const result = check(schema, value, root);
  if (result.ok) return result.value;
  throw refusedBeforeSending(result.problem.message, result.problem.field);
}
