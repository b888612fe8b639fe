/**
 * Calls a Telemetry the way the transport does (startCall before any wait; per attempt
 * attemptStart with the headers to send, then attemptEnd; retrying, then the wait, before the next
 * attempt; end once), from a short script, so the adapters are tested without a transport.
 */
import type { PartnerError } from '../../src/core/errors.js';
import type { CallStart, Telemetry, WaitReason } from '../../src/core/instrumentation.js';

export type Step =
  | { wait: WaitReason; ms: number }
  | {
      attempt: {
        status?: number;
        requestId?: string;
        error?: PartnerError;
        remaining?: number;
        limit?: number;
        durationMs?: number;
      };
    }
  | { retry: string; waitMs: number };

export const GET_LOCATION: CallStart = {
  operation: 'locations.get',
  method: 'GET',
  urlTemplate: '/partner/v1/locations/{partner_location_id}',
  serverAddress: 'partner.example.com',
  serverPort: 443,
};

/** Runs the script; returns the headers each attempt would have sent. */
export function drive(
  telemetry: Telemetry,
  steps: Step[],
  call: CallStart = GET_LOCATION,
): Array<Record<string, string>> {
  const observer = telemetry.startCall(call);
  const sent: Array<Record<string, string>> = [];
  let attempts = 0;
  let total = 0;
  let last: Extract<Step, { attempt: unknown }>['attempt'] = {};
  for (const step of steps) {
    if ('wait' in step) {
      total += step.ms;
      observer.waited?.({ reason: step.wait, ms: step.ms });
    } else if ('retry' in step) {
      observer.retrying?.({ attempt: attempts, reason: step.retry, waitMs: step.waitMs });
    } else {
      attempts += 1;
      const headers: Record<string, string> = { accept: 'application/json' };
      observer.attemptStart?.({ attempt: attempts, headers });
      sent.push(headers);
      last = step.attempt;
      const durationMs = last.durationMs ?? 20;
      total += durationMs;
      observer.attemptEnd?.({
        attempt: attempts,
        durationMs,
        ...(last.status === undefined ? {} : { status: last.status }),
        ...(last.requestId === undefined ? {} : { requestId: last.requestId }),
        ...(last.error === undefined ? {} : { error: last.error }),
        ...(last.remaining === undefined && last.limit === undefined
          ? {}
          : {
              rateLimit: {
                ...(last.limit === undefined ? {} : { limit: last.limit }),
                ...(last.remaining === undefined ? {} : { remaining: last.remaining }),
              },
            }),
      });
    }
  }
  observer.end?.({
    attempts,
    durationMs: total,
    ...(last.status === undefined ? {} : { status: last.status }),
    ...(last.requestId === undefined ? {} : { requestId: last.requestId }),
    ...(last.error === undefined ? {} : { error: last.error }),
  });
  return sent;
}
