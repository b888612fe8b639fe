import {
  AbortedError,
  AuthenticationError,
  ConflictError,
  ForbiddenIpError,
  type PartnerError,
  effectInDoubt,
  ProhibitedRuleError,
  ValidationError,
  type EnrollLocationBody,
  type Location,
  type WithResponse,
} from '../index.js';
import type { EnrolledRow } from './same-id.js';
import { isTheRowsStore, type ReadBack } from './settle.js';
import type {
  EnrollConflict,
  EnrollNotAttempted,
  EnrollOutcome,
  EnrollOutcomeBase,
  EnrollResumeRecord,
} from './types.js';

/** The row's id, when it has one that could be sent. */
export function idOf(row: EnrollLocationBody): string | undefined {
  const id =
    typeof row === 'object' && row !== null
      ? (row as { partner_location_id?: unknown }).partner_location_id
      : undefined;
  return typeof id === 'string' ? id : undefined;
}

export function baseOf(row: EnrollLocationBody, index: number, contentHash: string): EnrollOutcomeBase {
  return { index, partner_location_id: idOf(row), row, contentHash };
}

export function succeeded(base: EnrollOutcomeBase, { data, response }: WithResponse<Location>): EnrollOutcome {
  // The contract answers 201 for a new store and 200 for the same store again.
  const status = response.status === 201 ? 'created' : 'already_enrolled';
  return {
    ...base,
    status,
    location: data,
    requestId: response.requestId,
    confirmedAfter: undefined,
    sameAs: undefined,
  };
}

/** A row identical to an earlier row of the run that enrolled its id: that answer, without a call. */
export function sameAsEarlier(base: EnrollOutcomeBase, earlier: EnrolledRow): EnrollOutcome {
  return {
    ...base,
    status: 'already_enrolled',
    location: earlier.location,
    requestId: undefined,
    confirmedAfter: undefined,
    sameAs: earlier.index,
  };
}

/** The outcome of a row whose enrollment failed after the service may have acted, once the store was read. */
export function settledOutcome(base: EnrollOutcomeBase, error: PartnerError, read: ReadBack): EnrollOutcome {
  const id = base.partner_location_id ?? '';
  if ('found' in read) {
    const { data, response } = read.found;
    if (isTheRowsStore(data, base.row))
      return {
        ...base,
        status: 'already_enrolled',
        location: data,
        requestId: response.requestId,
        confirmedAfter: error,
        sameAs: undefined,
      };
    const message =
      `${id} is enrolled with a different name or address, so this row was not enrolled (its own call failed: ${error.message}). ` +
      `To change the store, use client.locations.update(${JSON.stringify(id)}, { name, address }).`;
    return { ...base, status: 'conflict', error: undefined, conflictsWith: undefined, earlierRun: undefined, message };
  }
  if ('missing' in read) {
    const message = `${error.message} Reading ${id} afterwards found no store: it was not enrolled, and enrolling it again is safe.`;
    return { ...base, status: 'failed', error, mayBeEnrolled: false, readError: undefined, message };
  }
  const message =
    `${error.message} Whether ${id} was enrolled is not known: reading it afterwards failed too (${read.failed.message}). ` +
    'Enrolling it again is safe: the same name and address give the same store.';
  return { ...base, status: 'failed', error, mayBeEnrolled: true, readError: read.failed, message };
}

export function notAttempted(base: EnrollOutcomeBase, error?: AbortedError): EnrollNotAttempted {
  return {
    ...base,
    status: 'not_attempted',
    error,
    message: error
      ? 'The run was stopped before this row got an answer (its call was cancelled). Enrolling it again is safe.'
      : 'The run was stopped before this row was sent.',
  };
}

/** The outcome of a row whose call failed. */
export function failedOutcome(base: EnrollOutcomeBase, error: PartnerError, stopped: boolean): EnrollOutcome {
  if (error instanceof AbortedError && stopped) return notAttempted(base, error);
  if (error instanceof ValidationError || error instanceof ProhibitedRuleError) {
    return { ...base, status: 'invalid', error, field: error.field, message: error.message };
  }
  if (error instanceof ConflictError) {
    const id = base.partner_location_id ?? '';
    const message =
      `${id} is already enrolled with a different name or address, so it was not enrolled again. ` +
      `To change the store, use client.locations.update(${JSON.stringify(id)}, { name, address }).`;
    return { ...base, status: 'conflict', error, conflictsWith: undefined, earlierRun: undefined, message };
  }
  return {
    ...base,
    status: 'failed',
    error,
    mayBeEnrolled: effectInDoubt(error),
    readError: undefined,
    message: error.message,
  };
}

/**
 * Failures of the run rather than of a row: a key the service refuses fails every row alike, a
 * client closed under the run sends nothing more. The run stops and rejects with the error.
 */
export function stopsTheRun(error: PartnerError, stopped: boolean): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof ForbiddenIpError ||
    (error instanceof AbortedError && !stopped)
  );
}

/** A later row of an id whose content differs from the first row's, found before sending. */
export function duplicateConflict(base: EnrollOutcomeBase, first: number): EnrollConflict {
  const id = JSON.stringify(base.partner_location_id);
  const message =
    `rows[${base.index}] has the partner_location_id ${id} of rows[${first}] with other content, so it was not sent: ` +
    `the first row of an id decides. Remove one of the two rows, or change the store afterwards with client.locations.update(${id}, { ... }).`;
  return { ...base, status: 'conflict', error: undefined, conflictsWith: first, earlierRun: undefined, message };
}

/** A row whose id the run `resume` continues enrolled with other content, found before sending. */
export function earlierRunConflict(base: EnrollOutcomeBase, earlierRun: EnrollResumeRecord): EnrollConflict {
  const id = JSON.stringify(base.partner_location_id);
  const message =
    `The earlier run (resume) enrolled ${id} with other content than rows[${base.index}], so this row was not sent: ` +
    `the first row of an id decides. Make the row match the enrolled store, or change the store with client.locations.update(${id}, { ... }).`;
  return { ...base, status: 'conflict', error: undefined, conflictsWith: undefined, earlierRun, message };
}
