import { ConfigurationError } from './errors.js';
import type { CallObserver, CallStart, Telemetry } from './instrumentation.js';
import type { Logger } from './logger.js';

/**
 * How much the built-in console logger prints (`logLevel` option, or `PARTNER_SDK_LOG`): `debug`
 * every request and response (with the budget left) and every wait; `info` retries, failed calls
 * and waits of a second or more; `warn` only problems the SDK worked around; `off` nothing (the default).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'off';

type Method = 'debug' | 'info' | 'warn';
type Write = (line: string) => void;
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, off: 3 };
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'off'];
/** Shorter waits are routine pacing (debug); longer ones are worth seeing at info. */
const LONG_WAIT_MS = 1_000;

/** What a client prints to the console: call events from its telemetry, everything else from its logger. */
export interface ConsoleLogging {
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * Console logging for a client whose options name no logger: the `logLevel` option, else the
 * `PARTNER_SDK_LOG` environment variable, else none (undefined).
 */
export function consoleLogging(
  option: LogLevel | undefined,
  env: string | undefined,
  write: Write = (line) => console.error(line),
): ConsoleLogging | undefined {
  const level = option === undefined ? envLevelOf(env, write) : levelOf(option, 'The option logLevel');
  if (level === 'off') return undefined;
  const print = (method: Method, message: string, fields?: Record<string, unknown>) => {
    if (RANK[method] < RANK[level]) return;
    // Logging must never fail a call (a closed stderr, a field that cannot be serialised).
    try {
      write(formatLine(new Date(), method, message, fields));
    } catch {
      // Nowhere left to report it.
    }
  };
  return { logger: callFreeLogger(print), telemetry: { startCall: (call) => printCall(call, print) } };
}

function levelOf(value: unknown, source: string): LogLevel {
  const level = knownLevel(value);
  if (level !== undefined) return level;
  throw new ConfigurationError(`${source} must be one of ${LEVELS.join(', ')}; got ${JSON.stringify(String(value))}.`);
}

function knownLevel(value: unknown): LogLevel | undefined {
  if (value === undefined) return 'off';
  const level = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (level === '') return 'off';
  return LEVELS.includes(level as LogLevel) ? (level as LogLevel) : undefined;
}

/** Unknown values of PARTNER_SDK_LOG already warned about, so a process making many clients warns once. */
const warnedEnvValues = new Set<string>();

/**
 * PARTNER_SDK_LOG is a debugging switch set from outside the code, not configuration: a value it
 * does not know must not stop a service at start-up, so it is reported once and logging stays off.
 */
function envLevelOf(value: string | undefined, write: Write): LogLevel {
  const level = knownLevel(value);
  if (level !== undefined) return level;
  const shown = String(value);
  if (!warnedEnvValues.has(shown)) {
    warnedEnvValues.add(shown);
    try {
      const message =
        `PARTNER_SDK_LOG is ${JSON.stringify(shown)}, not one of ${LEVELS.join(', ')}; the SDK ` +
        `goes on without logging. Set one of those levels to see its events.`;
      write(formatLine(new Date(), 'warn', message));
    } catch {
      // A closed stderr must not stop the client either.
    }
  }
  return 'off';
}

type Print = (method: Method, message: string, fields?: Record<string, unknown>) => void;

/**
 * The logger's events, except its per-call debug and info lines (those carry a method and a path):
 * the telemetry below reports each call more fully (request id, budget, every wait), once.
 */
function callFreeLogger(print: Print): Logger {
  const aboutCall = (fields?: Record<string, unknown>) =>
    fields !== undefined && 'method' in fields && 'path' in fields;
  return {
    debug: (message, fields) => aboutCall(fields) || print('debug', message, fields),
    info: (message, fields) => aboutCall(fields) || print('info', message, fields),
    warn: (message, fields) => print('warn', message, fields),
  };
}

function printCall(call: CallStart, print: Print): CallObserver {
  const name = call.operation;
  // The transport may leave the status and request id out of a failed call's outcome.
  let last: { status?: number | undefined; requestId?: string | undefined } = {};
  return {
    attemptStart: ({ attempt }) =>
      print('debug', `request ${name}`, { method: call.method, path: call.urlTemplate, attempt }),
    attemptEnd: ({ attempt, durationMs, status, requestId, error, rateLimit }) => {
      last = { status, requestId };
      print('debug', `response ${name}`, {
        attempt,
        status,
        error: status === undefined ? error?.code : undefined,
        ms: Math.round(durationMs),
        requestId,
        budget:
          rateLimit?.remaining === undefined
            ? undefined
            : rateLimit.limit === undefined
              ? rateLimit.remaining
              : `${rateLimit.remaining}/${rateLimit.limit}`,
      });
    },
    retrying: ({ attempt, reason, waitMs }) =>
      print('info', `retrying ${name}`, { attempt, reason, waitMs: Math.round(waitMs) }),
    waited: ({ reason, ms }) =>
      print(ms >= LONG_WAIT_MS ? 'info' : 'debug', `waited ${name}`, { reason, ms: Math.round(ms) }),
    end: ({ attempts, durationMs, error, ...outcome }) => {
      const fields = {
        status: outcome.status ?? last.status,
        attempts,
        ms: Math.round(durationMs),
        requestId: outcome.requestId ?? last.requestId,
      };
      if (error) print('info', `failed ${name}`, { code: error.code, ...fields });
      else print('debug', `done ${name}`, fields);
    },
  };
}

/**
 * One line per event on stderr (stdout stays the application's): time, level, what happened, then
 * the fields as `name=value`, e.g.
 * `2026-11-23T11:45:01.234Z partner-sdk info  retrying reports.summary attempt=1 reason=unavailable waitMs=374`.
 */
export function formatLine(at: Date, level: Method, message: string, fields: Record<string, unknown> = {}): string {
  const { method, path, ...rest } = fields;
  const parts = [at.toISOString(), 'partner-sdk', level.padEnd(5), message.replace(/^partner-sdk:\s*/, '')];
  const call = typeof method === 'string' && typeof path === 'string';
  if (call) parts.push(method, path);
  for (const [name, value] of Object.entries(call ? rest : { method, path, ...rest })) {
    if (value !== undefined) parts.push(`${name}=${formatValue(value)}`);
  }
  return parts.join(' ');
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value instanceof Error) return JSON.stringify(`${value.name}: ${value.message}`);
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
