/**
 * A sandbox whose simulated time is the client's clock: every wait of the watcher (and of the
 * transport) moves the sandbox's clock on, so a simulated week runs in moments. Rate windows run
 * on the same simulated time, so the budget the service reports and enforces is the one the
 * watcher paces itself against.
 */
import type { ClientOptions, Clock, PartnerClient } from '../../src/index.js';
import { startSdkEnv, type Sandbox, type SandboxOptions, type TransportKind } from '../helpers/sdk-env.js';

export interface SimEnv {
  sandbox: Sandbox;
  key: string;
  clock: Clock & { sleeps: number[] };
  client(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

/**
 * Sleeping advances the sandbox's clock; `sleeps` records each wait. `offsetMs` sets the client's
 * clock that far from the service's (a machine whose clock is wrong, a sandbox on its own date).
 */
export function simulatedClock(sandbox: Sandbox, offsetMs = 0): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => sandbox.clock.now().getTime() + offsetMs,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      sandbox.clock.advance({ ms });
      // Let other tasks (an abort, the app's own calls) run, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
    },
  };
}

export async function startSimEnv(kind: TransportKind, options: SandboxOptions = {}, clientOffsetMs = 0): Promise<SimEnv> {
  const env = await startSdkEnv(kind, { seed: 11, rateLimitClock: 'simulated', ...options });
  const clock = simulatedClock(env.sandbox, clientOffsetMs);
  return { sandbox: env.sandbox, key: env.key, clock, client: (extra = {}) => env.client({ clock, ...extra }), close: () => env.close() };
}
