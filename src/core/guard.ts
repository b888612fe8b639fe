/**
 * A partner's logger and telemetry run inside every call. Whatever they throw (or, when async,
 * reject with) must not change the call: not its outcome, not its retries, not its waits. Both are
 * wrapped once, when the client is built; each hook that throws, or an observer that sets a header
 * the SDK will not send, is reported once through the logger's `warn`, with the key redacted.
 */
import type { CallObserver, Telemetry } from './instrumentation.js';
import type { Logger } from './logger.js';
import { cleanText } from './sanitize.js';

const LOGGER_METHODS = ['debug', 'info', 'warn'] as const;
const OBSERVER_METHODS = ['attemptStart', 'attemptEnd', 'waited', 'retrying', 'end'] as const;

/** Reports a throwing hook (`logger.debug`, `telemetry.end`, ...) once per client. */
type Report = (hook: string, error: unknown) => void;

/** The partner's logger and telemetry, each method guarded. */
export function guardPartnerCode(
  logger: Logger,
  telemetry: Telemetry | undefined,
  secret: string,
): { logger: Logger; telemetry: Telemetry | undefined } {
  const reported = new Set<string>();
  const report: Report = (hook, error) => {
    if (reported.has(hook)) return;
    reported.add(hook);
    // A warn that throws has nowhere left to be reported.
    if (hook === 'logger.warn') return;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const message = `partner-sdk: ${hook} failed; the SDK ignored it and the call went on (reported once per hook)`;
    call(
      logger,
      read(logger, 'warn', 'logger', report),
      [message, { hook, error: cleanText(what, secret) }],
      'logger.warn',
      report,
    );
  };
  return { logger: guardLogger(logger, report), telemetry: telemetry && guardTelemetry(telemetry, report) };
}

function guardLogger(logger: Logger, report: Report): Logger {
  const guarded: Logger = {};
  // Only the methods the logger has: the transport skips a level's work when its method is absent.
  for (const name of LOGGER_METHODS) {
    const method = read(logger, name, 'logger', report);
    if (typeof method === 'function') guarded[name] = (...args) => call(logger, method, args, `logger.${name}`, report);
  }
  return guarded;
}

function guardTelemetry(telemetry: Telemetry, report: Report): Telemetry {
  return {
    startCall(start) {
      let observer: CallObserver | undefined;
      try {
        observer = telemetry.startCall(start);
      } catch (error) {
        report('telemetry.startCall', error);
        return {};
      }
      const guarded: CallObserver = {};
      if (typeof observer !== 'object' || observer === null) return guarded;
      for (const name of OBSERVER_METHODS) {
        const method = read(observer, name, 'telemetry', report);
        if (typeof method === 'function')
          guarded[name] = (event: never) => call(observer, method, [event], `telemetry.${name}`, report);
      }
      const attemptStart = guarded.attemptStart;
      if (attemptStart)
        guarded.attemptStart = ({ attempt, headers }) =>
          attemptStart({ attempt, headers: headerSink(headers, report) });
      return guarded;
    },
  };
}

// RFC 9110 field names and values (tab, visible ASCII, obs-text): fetch refuses other headers.
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The headers an observer may add to (trace context): a header fetch would refuse, or one that
 * would replace the key's Authorization, is left out (and reported) instead of failing the attempt.
 */
function headerSink(headers: Record<string, string>, report: Report): Record<string, string> {
  return new Proxy(headers, {
    set(target, name, value: unknown) {
      if (
        typeof name === 'string' &&
        FIELD_NAME.test(name) &&
        name.toLowerCase() !== 'authorization' &&
        typeof value === 'string' &&
        !BAD_VALUE.test(value)
      ) {
        target[name] = value;
      } else {
        report(
          'telemetry.attemptStart',
          new TypeError(
            `it set a header the SDK does not send (${typeof name === 'string' ? cleanText(name, undefined, 40) : 'a symbol'})`,
          ),
        );
      }
      return true;
    },
  });
}

/** A property of partner code; a getter that throws counts as that hook throwing. */
function read(target: object, name: string, owner: string, report: Report): unknown {
  try {
    return (target as Record<string, unknown>)[name];
  } catch (error) {
    report(`${owner}.${name}`, error);
    return undefined;
  }
}

function call(self: unknown, method: unknown, args: unknown[], hook: string, report: Report): void {
  if (typeof method !== 'function') return;
  try {
    const result: unknown = Reflect.apply(method, self, args);
    // An async hook's rejection would otherwise be unhandled, which ends a Node process.
    if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
      (result as PromiseLike<unknown>).then(undefined, (error: unknown) => report(hook, error));
    }
  } catch (error) {
    report(hook, error);
  }
}
