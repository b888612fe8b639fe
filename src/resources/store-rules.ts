import type { ErrorAdvice } from '../core/operation.js';
import { refusedBeforeSending } from '../core/refusal.js';
import { findRulesProblem } from '../schemas/locations.js';

/**
 * The refusals of a store body (enrollment or update) that its schema cannot word, made first as the service makes them: a rule that selects by
 * ethnicity, age or gender is a `ProhibitedRuleError` (the service's 422, before the field check
 * that would call it merely unknown), and rules that cannot be sent as JSON (circular, absurdly
 * deep) a `ValidationError`, never a stack overflow.
 */
export function refuseStoreRules(body: unknown): void {
  const rules = typeof body === 'object' && body !== null ? (body as { rules?: unknown }).rules : undefined;
  const problem = rules === undefined ? undefined : findRulesProblem(rules);
  if (problem?.kind === 'prohibited') {
    throw refusedBeforeSending(
      `${problem.field} selects creators by ethnicity, age or gender, which rules may not do. Remove it`,
      problem.field,
      'prohibited',
    );
  }
  if (problem) {
    const why =
      problem.kind === 'circular'
        ? 'contains itself (a circular structure cannot be sent as JSON)'
        : 'is nested too deeply to be rules (more than 32 levels)';
    throw refusedBeforeSending(`${problem.field} ${why}`, problem.field);
  }
}

/** A 409 on enrollment: the id is taken by a store with another name or address. */
export const enrollAdvice: ErrorAdvice = {
  conflict: (_error, { body }) => {
    const partnerLocationId =
      typeof body === 'object' && body !== null
        ? (body as { partner_location_id?: unknown }).partner_location_id
        : undefined;
    const id = typeof partnerLocationId === 'string' ? `'${partnerLocationId}'` : 'partnerLocationId';
    return (
      `To change an enrolled store's name or address, ` +
      `call client.locations.update(${id}, { name, address }); to enroll another store, use another partner_location_id.`
    );
  },
};

/** A 409 on a state change: the store's state does not allow it (a terminated store cannot be paused or resumed). */
export const STATE_ADVICE: ErrorAdvice = {
  invalid_state: () =>
    'Read the store with client.locations.get() to see its status; a terminated store stays terminated.',
};
