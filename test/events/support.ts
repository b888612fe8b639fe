/**
 * A sandbox whose simulated time is the client's clock: every wait of the watcher (and of the
 * transport) moves the sandbox's clock on, so a simulated week runs in moments. Rate windows run
 * on the same simulated time, so the budget the service reports and enforces is the one the
 * watcher paces itself against.
 */
import { setupServer } from 'msw/node';
import { PartnerClient, type ClientOptions, type Clock } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import type { TransportKind } from '../helpers/sdk-env.js';

export type Sandbox = ReturnType<typeof createSandbox>;

export interface SimEnv {
  sandbox: Sandbox;
  key: string;
  clock: Clock & { sleeps: number[] };
  client(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

const MSW_BASE = 'https://sandbox.crp.test';

/** Sleeping advances the sandbox's clock; `sleeps` records each wait. */
export function simulatedClock(sandbox: Sandbox): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => sandbox.clock.now().getTime(),
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

export async function startSimEnv(kind: TransportKind, options: Parameters<typeof createSandbox>[0] = {}): Promise<SimEnv> {
  const sandbox = createSandbox({ seed: 11, rateLimitClock: 'simulated', ...options });
  const key = sandbox.issueKey();
  const clock = simulatedClock(sandbox);
  const clients: PartnerClient[] = [];
  let baseUrl: string;
  let stop: () => Promise<void>;
  if (kind === 'msw') {
    const server = setupServer(...sandbox.mswHandlers(MSW_BASE));
    server.listen({ onUnhandledRequest: 'bypass' });
    baseUrl = MSW_BASE;
    stop = async () => server.close();
  } else {
    const listening = await sandbox.listen(0);
    baseUrl = listening.url;
    stop = () => listening.close();
  }
  return {
    sandbox,
    key,
    clock,
    client(extra = {}) {
      const client = new PartnerClient({ apiKey: key, baseUrl, clock, ...extra });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await stop();
    },
  };
}
