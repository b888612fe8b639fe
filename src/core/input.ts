import type * as z from 'zod/mini';
import { check } from '../schemas/validate.js';
import { ProhibitedRuleError, ValidationError } from './errors.js';
import { findProhibitedRule } from '../schemas/locations.js';

/**
 * Refuse input the service would refuse, before anything is sent, with the same error class and
 * `field` the service would give, so callers need one branch for both.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, value: unknown, root?: string): z.infer<S> {
  const rules = typeof value === 'object' && value !== null ? (value as { rules?: unknown }).rules : undefined;
  const prohibited = rules === undefined ? undefined : findProhibitedRule(rules);
  if (prohibited) {
    throw new ProhibitedRuleError({
      status: 422,
      code: 'prohibited_rule',
      message: `${prohibited} selects creators by ethnicity, age or gender, which rules may not do. Remove it.`,
      field: prohibited,
    });
  }
  const result = check(schema, value, root);
  if (result.ok) return result.value;
  throw new ValidationError({
    status: 400,
    code: 'validation_error',
    message: `${result.problem.message}. Nothing was sent.`,
    field: result.problem.field,
  });
}
