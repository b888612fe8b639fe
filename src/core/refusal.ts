import { ProhibitedRuleError, ValidationError } from './errors.js';

/** Ends the message of every refusal made before sending, so a reader of logs knows the service saw nothing. */
const NOTHING_SENT = ' Nothing was sent.';

/**
 * The error for input refused before anything is sent: the class, code, status and `field` the
 * service would give, so callers need one branch for both. `problem` is one sentence without its
 * full stop, e.g. `limit must be at most 200`.
 */
export function refusedBeforeSending(
  problem: string,
  field: string,
  kind: 'validation' | 'prohibited' = 'validation',
): ValidationError | ProhibitedRuleError {
  const message = `${problem}.${NOTHING_SENT}`;
  const error =
    kind === 'prohibited'
      ? new ProhibitedRuleError({ status: 422, code: 'prohibited_rule', message, field })
      : new ValidationError({ status: 400, code: 'validation_error', message, field });
  error.sent = false;
  return error;
}

/**
 * The problem a refusal made before sending names, without the closing words that say nothing was
 * sent (a command line reports it as a usage mistake instead), and its field; undefined for any
 * other error.
 */
export function problemRefusedBeforeSending(
  error: unknown,
): { problem: string; field: string | undefined } | undefined {
  if (!(error instanceof ValidationError) || error.sent !== false) return undefined;
  return { problem: error.message.slice(0, -NOTHING_SENT.length - 1), field: error.field };
}
