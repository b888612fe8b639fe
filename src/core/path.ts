import * as z from 'zod/mini';
import { locationId } from '../schemas/locations.js';
import { check } from '../schemas/validate.js';
import { ValidationError } from './errors.js';

/** Each path parameter of the contract and what it must look like. */
const PARAMS: Record<string, z.ZodMiniType> = {
  partner_location_id: locationId,
  reservation_id: z.string().check(z.minLength(1, 'must not be empty')),
  batch_id: z.string().check(z.minLength(1, 'must not be empty')),
};

/**
 * Fill a route template such as `/locations/{partner_location_id}/pause`, checking and
 * percent-encoding each value so an id can never change the path's shape.
 */
export function fillRoute(route: string, params: Record<string, string> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const schema = PARAMS[name];
    const value = params[name];
    const result = schema ? check(schema, value, name) : { ok: typeof value === 'string' } as const;
    if (!result.ok) {
      const problem = 'problem' in result ? result.problem : { field: name, message: `${name} is required` };
      throw new ValidationError({ status: 400, code: 'validation_error', message: problem.message, field: problem.field });
    }
    return encodeURIComponent(value as string);
  });
}
