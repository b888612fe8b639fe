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

/**
 * A service that counts billing months in each store's time zone: `/billing/monthly` answered from
 * the sandbox's own records, every other call passed on.
 */
export function billingInStoreZone(env: SimEnv): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!url.pathname.endsWith('/billing/monthly')) return fetch(request);
    const month = url.searchParams.get('month');
    const items = env.sandbox.inspect.stores(env.key).map((store) => {
      const format = new Intl.DateTimeFormat('en-CA', { timeZone: store.time_zone ?? 'UTC', year: 'numeric', month: '2-digit' });
      const videos = env.sandbox.inspect.videos(env.key, store.partner_location_id).filter((v) => format.format(new Date(v.posted_at)).slice(0, 7) === month);
      return { partner_location_id: store.partner_location_id, videos_published: videos.length, completed_visits: 0, no_shows: 0 };
    });
    const headers = { 'content-type': 'application/json', date: env.sandbox.clock.now().toUTCString() };
    return new Response(JSON.stringify({ items, next_cursor: null }), { status: 200, headers });
  };
}
