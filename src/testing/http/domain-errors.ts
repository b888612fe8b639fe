import type { DomainProblem } from '../model/domain-error.js';
import { ApiError, notFound, validation } from './api-error.js';

/** The answer to a domain refusal: status and code from the contract, advice in endpoint terms. */
export function apiErrorFor(problem: DomainProblem): ApiError {
  switch (problem.kind) {
    case 'store_not_found':
      return notFound(`Store ${JSON.stringify(problem.storeId)}`);
    case 'reservation_not_found':
      return notFound(`Reservation ${JSON.stringify(problem.reservationId)}`);
    case 'batch_not_found':
      return notFound(`Sample batch ${JSON.stringify(problem.batchId)} of store ${JSON.stringify(problem.storeId)}`);
    case 'store_enrolled_differently':
      return new ApiError(
        'conflict',
        `Store ${JSON.stringify(problem.storeId)} is already enrolled with a different name or address. Use PATCH /locations/${problem.storeId} to change it.`,
        'partner_location_id',
      );
    case 'store_terminated':
      return new ApiError(
        'invalid_state',
        `Store ${JSON.stringify(problem.storeId)} is terminated, which is final: it cannot be ${problem.action}d. Enroll a new store instead.`,
      );
    case 'no_sample_review':
      return new ApiError(
        'not_found',
        `Store ${JSON.stringify(problem.storeId)} does not use creator sample review, so it has no sample batch.`,
      );
    case 'batch_not_awaiting':
      return new ApiError(
        'invalid_state',
        `Sample batch ${problem.batchId} is ` +
          `${problem.state === 'not_current' ? 'no longer the current batch' : problem.state}; only the ` +
          `current batch awaiting a decision can be decided. Read GET ` +
          `/locations/${problem.storeId}/creator-samples for the current one.`,
      );
    case 'unknown_plan':
      return validation(
        'plan',
        `plan ${JSON.stringify(problem.plan)} is not a plan this service sells. Use one of: ${problem.plans.join(', ')}.`,
      );
  }
}
