/**
 * What the sandbox's domain refuses, in its own terms. The HTTP layer (http/domain-errors.ts)
 * turns each into a status, an error code and a message that says which endpoint to use instead.
 */
export type DomainProblem =
  | { kind: 'store_not_found'; storeId: string }
  | { kind: 'reservation_not_found'; reservationId: string }
  | { kind: 'batch_not_found'; storeId: string; batchId: string }
  | { kind: 'store_enrolled_differently'; storeId: string }
  | { kind: 'store_terminated'; storeId: string; action: 'pause' | 'resume' }
  | { kind: 'no_sample_review'; storeId: string }
  | { kind: 'batch_not_awaiting'; storeId: string; batchId: string; state: 'approved' | 'replaced' | 'not_current' }
  | { kind: 'unknown_plan'; plan: string; plans: string[] };

export class DomainError extends Error {
  constructor(readonly problem: DomainProblem) {
    super(problem.kind);
    this.name = 'DomainError';
  }
}
