/**
 * Typed error handling: branch on `instanceof` or on `code` (a literal union, so `switch` narrows),
 * decide what to do (fix the input, retry later, alert), and log errors safely (`toJSON()` never
 * contains the key).
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 npx tsx examples/error-handling.ts
 *
 * The tour triggers the errors a real service can be made to produce on demand: refused before
 * sending, 404, 409, an aborted call. Server failures (5xx, 429) come from the sandbox's fault
 * injection in test/examples/error-handling.test.ts and go through the same `adviseOn()`.
 */
import {
  AbortedError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
  isPartnerError,
  type PartnerClient,
} from '@crp/partner-sdk';
import { runMain } from './support/main.js';

export type Action = 'fix_input' | 'retry_later' | 'check_credentials' | 'ignore' | 'alert';

export interface Advice {
  action: Action;
  /** Wait this long before trying again (retry_later only). */
  retryAfterMs?: number;
  /** One line for a log or a dashboard; never contains the key. */
  summary: string;
}

/**
 * What to do about an error from any SDK call. Anything that is not a PartnerError is a bug: rethrown.
 * Families of statuses are told apart by class (a 503 may carry the code `unavailable` or
 * `internal_error`: both are an InternalServerError); specific situations by `code`.
 */
export function adviseOn(error: unknown): Advice {
  if (!isPartnerError(error)) throw error;
  // The message already names the call (method and path) and the request id.
  const summary = `${error.name} (${error.code}): ${error.message}`;
  if (error instanceof RateLimitError) {
    // Only when the wait was longer than rateLimit.maxRetryAfter or retries ran out: shorter waits were waited out.
    return { action: 'retry_later', retryAfterMs: error.retryAfterMs, summary };
  }
  if (error instanceof InternalServerError || error instanceof ConnectionError || error instanceof TimeoutError) {
    // The SDK already retried what was safe to retry; `attempts` says how often it tried.
    return { action: 'retry_later', retryAfterMs: 30_000, summary: `${summary} [after ${error.attempts} attempt(s)]` };
  }
  switch (error.code) {
    case 'validation_error':
    case 'prohibited_rule':
      // `field` names what to fix, e.g. address.country.
      return { action: 'fix_input', summary: `${summary} [field ${'field' in error ? String(error.field) : '?'}]` };
    case 'conflict':
    case 'invalid_state':
      return { action: 'fix_input', summary };
    case 'not_found':
    case 'aborted':
      return { action: 'ignore', summary };
    case 'unauthorized':
    case 'forbidden_ip':
    case 'configuration_error':
      return { action: 'check_credentials', summary };
    default:
      return { action: 'alert', summary };
  }
}

/** Run `call`, and on a PartnerError return its advice instead of throwing. */
export async function attempt<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; advice: Advice; error: unknown }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, advice: adviseOn(error), error };
  }
}

/** Trigger each error a live service can produce on demand and show how each is told apart. Returns what was caught, by scenario. */
export async function errorTour(client: PartnerClient, print: (line: string) => void = console.log): Promise<Record<string, Advice>> {
  const seen: Record<string, Advice> = {};
  const record = (name: string, advice: Advice) => {
    seen[name] = advice;
    print(`${name.padEnd(18)} -> ${advice.action.padEnd(17)} ${advice.summary}`);
  };
  const address = { line1: '1 Error Way', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' };

  // 1. Refused before sending: the SDK checks input against the same schemas as the service.
  const invalid = await attempt(() => client.locations.enroll({ partner_location_id: 'errors-01', name: 'Errors', address: { ...address, country: 'USA' } }));
  if (!invalid.ok && invalid.error instanceof ValidationError) record('validation', invalid.advice);

  // 2. 404 from the service.
  const missing = await attempt(() => client.locations.get('errors-no-such-store'));
  if (!missing.ok && missing.error instanceof NotFoundError) record('not found', missing.advice);

  // 3. 409: the same store id enrolled again with another name (use update() to rename).
  await client.locations.enroll({ partner_location_id: 'errors-01', name: 'Errors', address });
  const conflict = await attempt(() => client.locations.enroll({ partner_location_id: 'errors-01', name: 'Errors, renamed', address }));
  if (!conflict.ok && conflict.error instanceof ConflictError) record('conflict', conflict.advice);

  // 4. Your own AbortSignal: the call stops at once, whatever it was waiting for.
  const controller = new AbortController();
  controller.abort();
  const aborted = await attempt(() => client.reports.summary({ signal: controller.signal }));
  if (!aborted.ok && aborted.error instanceof AbortedError) record('aborted', aborted.advice);

  // 5. Safe to log: the JSON form has the request and request id, never the key.
  if (!missing.ok && isPartnerError(missing.error)) print(`log line: ${JSON.stringify(missing.error.toJSON())}`);
  return seen;
}

runMain(import.meta.url, (client) => errorTour(client));
