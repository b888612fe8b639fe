import type { CallObserver, Telemetry } from './instrumentation.js';

/** Both telemetries see every call (a partner's own and the console logger's). */
export function teeTelemetry(first: Telemetry | undefined, second: Telemetry | undefined): Telemetry | undefined {
  if (!first || !second) return first ?? second;
  return {
    startCall(call) {
      const a = first.startCall(call);
      const b = second.startCall(call);
      const both =
        <K extends keyof CallObserver>(key: K) =>
        (event: Parameters<NonNullable<CallObserver[K]>>[0]) => {
          (a[key] as ((e: typeof event) => void) | undefined)?.(event);
          (b[key] as ((e: typeof event) => void) | undefined)?.(event);
        };
      return {
        attemptStart: both('attemptStart'),
        attemptEnd: both('attemptEnd'),
        waited: both('waited'),
        retrying: both('retrying'),
        end: both('end'),
      };
    },
  };
}
