/**
 * A sandbox on a real port that a test resets through its control API (as `crp-sandbox` does it:
 * the same key stays valid, for a new empty account, and the service's clock is back at its
 * start), with a client whose clock goes on forward across it: every wait of the client moves
 * the sandbox's clock on, then runs `onWait`.
 */
import { PartnerClient, type Clock } from '../../src/index.js';
import { SandboxControl, type PopulateOptions } from '../../src/testing/index.js';
import { createEmulator, type Emulator } from '../../src/testing/emulator.js';

export interface Service {
  emulator: Emulator;
  key: string;
  client: PartnerClient;
  /** Runs at each of the watcher's waits, after simulated time moved on. */
  onWait: () => Promise<void> | void;
  /** Reset through the control API, then fill the new account; the client's clock goes on forward. */
  reset(populate: PopulateOptions): Promise<void>;
  close(): Promise<void>;
}

export async function startService(options: { seed: number; visitsPerWeek: number }): Promise<Service> {
  let key = '';
  const { emulator, reissueKey } = createEmulator(
    { ...options, rateLimitClock: 'simulated' },
    { afterReset: () => reissueKey(key) },
  );
  key = emulator.issueKey();
  const server = await emulator.listen(0);
  const control = new SandboxControl({ baseUrl: server.url });
  let offset = 0;
  const service: Service = {
    emulator,
    key,
    onWait: () => {},
    client: undefined as unknown as PartnerClient,
    reset: async (populate) => {
      const before = clock.now();
      await control.reset();
      offset = before - emulator.clock.now().getTime();
      emulator.populate(key, populate);
    },
    close: () => server.close(),
  };
  const clock: Clock = {
    now: () => emulator.clock.now().getTime() + offset,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      emulator.clock.advance({ ms });
      await service.onWait();
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    },
  };
  service.client = new PartnerClient({ apiKey: key, baseUrl: server.url, clock });
  return service;
}
