import { ConfigurationError } from './errors.js';
import type { Logger } from './logger.js';

/**
 * How much the built-in console logger prints (`logLevel` option, or `PARTNER_SDK_LOG`): `debug`
 * every request and response and every wait for the rate budget; `info` retries, 429 pauses and
 * long waits; `warn` only problems the SDK worked around; `off` nothing (the default).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'off';

type Method = 'debug' | 'info' | 'warn';
const RANK: Record<LogLevel | Method, number> = { debug: 0, info: 1, warn: 2, off: 3 };
const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'off'];

/**
 * The logger of a client whose options name none: readable lines on the console from the
 * `logLevel` option, else the `PARTNER_SDK_LOG` environment variable, else nothing.
 */
export function loggerForLevel(option: LogLevel | undefined, env: string | undefined): Logger {
  const level = option === undefined ? levelOf(env, 'The environment variable PARTNER_SDK_LOG') : levelOf(option, 'The option logLevel');
  return level === 'off' ? {} : consoleLogger(level);
}

function levelOf(value: unknown, source: string): LogLevel {
  if (value === undefined) return 'off';
  const level = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (level === '') return 'off';
  if (LEVELS.includes(level as LogLevel)) return level as LogLevel;
  throw new ConfigurationError(`${source} must be one of ${LEVELS.join(', ')}; got ${JSON.stringify(String(value))}.`);
}

/**
 * One line per event on stderr (stdout stays the application's): time, level, what happened, then
 * the fields as `name=value`, e.g.
 * `2026-11-23T11:45:01.234Z partner-sdk info  retrying GET /partner/v1/locations/store-1 attempt=1 waitMs=200 reason=rate_limited`.
 */
export function consoleLogger(level: Exclude<LogLevel, 'off'>, write: (line: string) => void = (line) => console.error(line)): Logger {
  const logger: Logger = {};
  for (const method of ['debug', 'info', 'warn'] as const) {
    if (RANK[method] < RANK[level]) continue;
    logger[method] = (message, fields) => write(formatLine(new Date(), method, message, fields));
  }
  return logger;
}

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
