/**
 * Where the SDK reports what it does. Every method is optional; none ever receives the API key.
 * A method that throws (or rejects) never changes a call; it is reported once through `warn`.
 */
export interface Logger {
  /** Each request and response (method, path, attempt, status). */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Retries (with the wait and the reason), and a shared budget rejoining its store. */
  info?(message: string, fields?: Record<string, unknown>): void;
  /** Problems the SDK worked around, e.g. a shared budget whose Redis is unreachable (logged once). */
  warn?(message: string, fields?: Record<string, unknown>): void;
}
