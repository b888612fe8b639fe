/**
 * Hosts the sandbox emulator (the BUILT one) on a real port, in its own process so that serving
 * never shares an event loop with the client being measured. Driven over IPC by bench/lib/sandbox.ts.
 */
import type { RateLimit } from '@crp/partner-sdk/testing';
import { serveParent } from '../lib/children.js';
import { loadTesting } from '../lib/paths.js';

const { createSandbox } = await loadTesting();
const sandbox = createSandbox({ seed: 7, requestLogSize: 1_000_000 });
const server = await sandbox.listen(0);

serveParent({
  url: () => server.url,
  key: (m) => sandbox.issueKey(m.rateLimit ? { rateLimit: m.rateLimit as RateLimit } : {}),
  populate: (m) => {
    const result = sandbox.populate(
      m.key as string,
      m.options as { locations: number; reservationsPerLocation?: number },
    );
    return { locationIds: result.locationIds.slice(0, 10), reservations: result.reservations };
  },
  count: (m) => sandbox.requestCount((m.filter ?? {}) as { status?: number; path?: string }),
  latency: (m) => {
    sandbox.faults.clear();
    const delayMs = m.delayMs as number;
    if (delayMs > 0) sandbox.faults.random({ rate: 1, kinds: [{ delayMs }], path: m.path as string });
    return true;
  },
  close: async () => {
    await server.close();
    setImmediate(() => process.exit(0));
    return true;
  },
});
