/**
 * A sandbox whose simulated time is the client's clock: every wait of the watcher (and of the
 * transport) moves the sandbox's clock on, so a simulated week runs in moments. Rate windows run
 * on the same simulated time, so the budget the service reports and enforces is the one the
 * watcher paces itself against.
 */
import type { ClientOptions, PartnerClient } from '../../src/index.js';
import { CallBudget } from '../../src/events/call-budget.js';
import { Detector, type DetectorContext } from '../../src/events/detector.js';
import { ServiceClock } from '../../src/events/service-clock.js';
import { WatchState } from '../../src/events/state.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { startSdkEnv, type Sandbox, type SandboxOptions, type TransportKind } from '../helpers/sdk-env.js';
import { closedAfterEach } from '../helpers/teardown.js';

export interface SimEnv {
  sandbox: Sandbox;
  key: string;
  /** Sleeping advances the sandbox's clock; `sleeps` records each wait. */
  clock: FakeClock;
  client(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

/** `clientOffsetMs` sets the client's clock that far from the service's (a machine whose clock is wrong). */
export async function startSimEnv(
  kind: TransportKind,
  options: SandboxOptions = {},
  clientOffsetMs = 0,
): Promise<SimEnv> {
  const env = await startSdkEnv(kind, { seed: 11, rateLimitClock: 'simulated', ...options });
  const clock = fakeClock({ sandbox: env.sandbox, offsetMs: clientOffsetMs });
  return {
    sandbox: env.sandbox,
    key: env.key,
    clock,
    client: (extra = {}) => env.client({ clock, ...extra, fetch: acrossTheNetwork(extra.fetch) }),
    close: async () => {
      // A loop the test left running (a watcher never stopped) ends at its next wait.
      clock.close();
      await env.close();
    },
  };
}

/**
 * `send` (the global fetch by default, read at each call: msw patches it) answered no sooner than
 * the next turn of the event loop, as over a network. msw in-process answers within one turn, so
 * a loop that calls without waiting (a pass after a pass of 0 ms, simulated latency in place of
 * waits) would otherwise hold the event loop, and with it the test's own timeout.
 */
function acrossTheNetwork(send?: typeof fetch): typeof fetch {
  return async (input, init) => {
    await new Promise((resolve) => setImmediate(resolve));
    return (send ?? fetch)(input, init);
  };
}

/** In a `describe`: `startSimEnv`, each environment it starts closed after each test. */
export const useSimEnv = () => closedAfterEach(startSimEnv);

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
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: store.time_zone ?? 'UTC',
        year: 'numeric',
        month: '2-digit',
      });
      const videos = env.sandbox.inspect
        .videos(env.key, store.partner_location_id)
        .filter((v) => format.format(new Date(v.posted_at)).slice(0, 7) === month);
      return {
        partner_location_id: store.partner_location_id,
        videos_published: videos.length,
        completed_visits: 0,
        no_shows: 0,
      };
    });
    const headers = { 'content-type': 'application/json', date: env.sandbox.clock.now().toUTCString() };
    return new Response(JSON.stringify({ items, next_cursor: null }), { status: 200, headers });
  };
}

/** A detector on `client` with a fresh state, its whole budget (share 1), driven pass by pass by a test. */
export function detectorFor(client: PartnerClient, options: DetectorOptions) {
  const state = new WatchState();
  const service = new ServiceClock(client.clock);
  return { state, service, detector: detectorOn(client, state, service, options) };
}

type DetectorOptions = Pick<DetectorContext, 'videoScanSpacing' | 'maxLag' | 'stores'> & { onCall?: () => void };

/** A detector on a state and service clock of the test's: a second one is a watcher restarted on its checkpoint. */
export function detectorOn(client: PartnerClient, state: WatchState, service: ServiceClock, options: DetectorOptions) {
  return new Detector({
    client,
    budget: new CallBudget(client.clock, 1, () => client.rateLimit),
    state,
    service,
    local: () => client.clock.monotonic(),
    signal: new AbortController().signal,
    onCall: options.onCall ?? (() => {}),
    videoScanSpacing: options.videoScanSpacing,
    maxLag: options.maxLag,
    ...(options.stores ? { stores: options.stores } : {}),
  });
}
