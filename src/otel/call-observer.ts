import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Tracer,
} from '@opentelemetry/api';
import type { CallObserver, CallStart } from '../index.js';
import type { Instruments } from './instruments.js';
import { ATTR, EVENT } from './names.js';

/**
 * One SDK call as one CLIENT span and its metrics. Only what the transport reports is recorded:
 * route templates, statuses, codes, ids and durations. Never a header value, a query, a body or an
 * error's message (which may quote the service's text or the caller's input).
 */
export function observeCall(call: CallStart, tracer: Tracer, instruments: Instruments): CallObserver {
  const parent = context.active();
  const span = tracer.startSpan(
    call.operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.method]: call.method,
        [ATTR.serverAddress]: call.serverAddress,
        [ATTR.serverPort]: call.serverPort,
        [ATTR.urlTemplate]: call.urlTemplate,
        [ATTR.operation]: call.operation,
      },
    },
    parent,
  );
  const spanContext = trace.setSpan(parent, span);
  const byOperation: Attributes = { [ATTR.operation]: call.operation };
  let last: { status?: number | undefined; requestId?: string | undefined } = {};

  return {
    attemptStart({ headers }) {
      // Through the application's registered propagator (W3C traceparent in a standard setup), on
      // every attempt, so each one the service sees joins this span. A propagator that throws
      // costs the attempt its trace context, not the call.
      try {
        propagation.inject(spanContext, headers);
      } catch {
        // Not thrown on: the SDK would report it as telemetry.attemptStart failing, pointing at
        // this entry rather than at the application's propagator.
      }
    },
    attemptEnd({ status, requestId, rateLimit }) {
      last = { status, requestId };
      if (status === 429) instruments.rateLimited.add(1, byOperation);
      if (rateLimit?.remaining !== undefined) {
        instruments.remaining.record(rateLimit.remaining, { [ATTR.serverAddress]: call.serverAddress });
        span.setAttribute(ATTR.remaining, rateLimit.remaining);
      }
      if (rateLimit?.limit !== undefined) span.setAttribute(ATTR.limit, rateLimit.limit);
    },
    waited({ reason, ms }) {
      span.addEvent(EVENT.wait, { [ATTR.waitReason]: reason, [ATTR.waitMs]: ms });
      instruments.waitDuration.record(ms / 1000, { ...byOperation, [ATTR.waitReason]: reason });
    },
    retrying({ attempt, reason, waitMs }) {
      span.addEvent(
        EVENT.retry,
        compact({
          [ATTR.attempt]: attempt,
          [ATTR.retryReason]: reason,
          [ATTR.retryWaitMs]: waitMs,
          [ATTR.status]: last.status,
          [ATTR.requestId]: last.requestId,
        }),
      );
      instruments.retries.add(1, { ...byOperation, [ATTR.retryReason]: reason });
    },
    end(settled) {
      const { attempts, durationMs, error } = settled;
      // The last attempt's figures stand in for what the transport leaves out of the outcome.
      const status = settled.status ?? last.status;
      const requestId = settled.requestId ?? last.requestId;
      const errorType = status !== undefined && status >= 400 ? String(status) : error?.code;
      const outcome = compact({
        [ATTR.status]: status,
        [ATTR.errorType]: errorType,
        [ATTR.errorCode]: error?.code,
      });
      span.setAttributes({
        ...outcome,
        ...compact({ [ATTR.requestId]: requestId, [ATTR.resendCount]: attempts > 1 ? attempts - 1 : undefined }),
        [ATTR.attempts]: attempts,
      });
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: `${error.name} (${error.code})` });
      span.end();
      const metricAttributes = { ...byOperation, ...outcome, [ATTR.outcome]: error ? 'error' : 'success' };
      instruments.calls.add(1, metricAttributes);
      instruments.callDuration.record(durationMs / 1000, metricAttributes);
    },
  };
}

function compact(attributes: Record<string, string | number | undefined>): Attributes {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) out[name] = value;
  return out;
}
