/** Where the SDK reports what it does. Every method is optional; none ever receives the API key. */
export interface Logger {
  /** Each request and response (method, path, attempt, status), and short waits for the rate budget. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Retries (with the wait and the reason), 429 pauses, and long waits for the rate budget. */
  info?(message: string, fields?: Record<string, unknown>): void;
  /** Problems the SDK worked around, e.g. an internal error of the rate limiter (such as a lost Redis connection). */
  warn?(message: string, fields?: Record<string, unknown>): void;
  /** Failures that reach no caller. Not used by this version; kept so a logger like `console` fits. */
  error?(message: string, fields?: Record<string, unknown>): void;
}
