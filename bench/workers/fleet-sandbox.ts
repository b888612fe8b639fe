/**
 * Hosts a sandbox from the SOURCES on simulated time (its rate-limit windows on the sandbox clock)
 * on a real loopback port, in a process of its own, so that the process being measured holds only
 * the client and what it syncs. Driven over IPC by bench/lib/simulated-client.ts (`remoteSimulatedClient`):
 * the clock moves only when the client sleeps (`advance`), so a simulated day takes minutes.
 *
 * argv: a JSON object { seed, limit, windowMs, visitsPerWeek }.
 */
import { createSandbox, type RateLimit } from '../../src/testing/index.js';
import { serveParent } from '../lib/children.js';

const options = JSON.parse(process.argv[2] ?? '{}') as {
  seed?: number;
  limit?: number;
  windowMs?: number;
  visitsPerWeek?: number;
};
const sandbox = createSandbox({
  seed: options.seed ?? 1,
  rateLimitClock: 'simulated',
  rateLimit: { limit: options.limit ?? 600, windowMs: options.windowMs ?? 60_000 },
  visitsPerWeek: options.visitsPerWeek ?? 3,
  // The benches count calls on the client side; a long log is only memory and work here.
  requestLogSize: 1_000,
});
const server = await sandbox.listen(0);
// Exit normally on the parent's SIGTERM, so that --cpu-prof (BENCH_CPU_PROF_DIR) writes its profile.
process.on('SIGTERM', () => process.exit(0));

serveParent({
  url: () => server.url,
  now: () => sandbox.clock.now().getTime(),
  advance: (m) => sandbox.clock.advance({ ms: m.ms as number }).getTime(),
  key: (m) => sandbox.issueKey(m.rateLimit ? { rateLimit: m.rateLimit as RateLimit } : {}),
  populate: (m) => {
    const started = performance.now();
    const result = sandbox.populate(
      m.key as string,
      m.options as { locations: number; reservationsPerLocation?: number },
    );
    return { reservations: result.reservations, ms: performance.now() - started };
  },
  /** What a first load needs to read: bookings, stores, stores with a completed visit, the oldest booking. */
  account: (m) => {
    const bookings = sandbox.inspect.reservations(m.key as string);
    let oldest = '';
    const withVisit = new Set<string>();
    for (const b of bookings) {
      if (oldest === '' || b.created_at < oldest) oldest = b.created_at;
      if (b.status === 'completed') withVisit.add(b.partner_location_id);
    }
    return {
      bookings: bookings.length,
      stores: sandbox.inspect.stores(m.key as string).length,
      withVisit: withVisit.size,
      oldest,
    };
  },
  /** The account's change log after an instant (epoch ms), for detection lag. */
  changes: (m) => sandbox.inspect.changes(m.key as string).filter((c) => Date.parse(c.at) > (m.after as number)),
  memory: () => ({
    peakRss: process.resourceUsage().maxRSS * 1024,
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
  }),
  close: async () => {
    await server.close();
    setImmediate(() => process.exit(0));
    return true;
  },
});
