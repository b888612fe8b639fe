/**
 * A sandbox whose history can truly go back under a running watcher: `rewind()` resets it (as
 * `POST /_sandbox/reset` does: every booking gone, the service's clock back at its start, the same
 * key valid for a new empty account) and fills the new account. The client's clock runs on forward
 * across it (a monotonic reading never goes back), and the change log of the history that was
 * lost is kept apart, so each history can be checked on its own.
 */
import { setupServer } from 'msw/node';
import { PartnerClient, type ClientOptions } from '../../src/index.js';
import { watchEvents, type Checkpoint, type PartnerEvent, type WatchOptions } from '../../src/events/index.js';
import type { PopulateOptions, SandboxOptions, SandboxChange } from '../../src/testing/index.js';
import { createEmulator, type Emulator } from '../../src/testing/emulator.js';
import { mswHandlers } from '../../src/testing/transports/msw.js';
import { sleepAfterClose, type FakeClock } from '../helpers/fake-clock.js';
import { serviceTimeProxy, type TimedAnswer, type TimeRewrite } from './service-time-proxy.js';

const BASE = 'https://rewind.crp.test';

/** One history of the account: its changes, and the client's time it began at. */
export interface History {
  changes: SandboxChange[];
  /** The client's clock when this history began (the env's start, or the rewind). */
  from: number;
  /** The service's clock when the history was lost. */
  until: number;
}

export interface RewindableEnv {
  sandbox: Emulator;
  key: string;
  clock: FakeClock;
  client(options?: ClientOptions): PartnerClient;
  /** Reset the service under the watcher and fill the new account with `populate`. */
  rewind(populate: PopulateOptions): void;
  /** Run `action` at the first wait that reaches the client's time `at`. */
  at(at: number, action: () => void): void;
  /** The histories that were lost to a rewind, oldest first (a `History`'s `until` is when). */
  readonly lost: History[];
  close(): Promise<void>;
}

export function startRewindableEnv(options: SandboxOptions): RewindableEnv {
  let key = '';
  const { emulator, inProcess, reissueKey } = createEmulator(
    { seed: 11, rateLimitClock: 'simulated', ...options },
    { afterReset: () => reissueKey(key) },
  );
  key = emulator.issueKey();
  const server = setupServer(...mswHandlers(inProcess, BASE));
  server.listen({ onUnhandledRequest: 'bypass' });
  /** The client's monotonic reading minus the service's clock: grows by what each rewind took back. */
  let ahead = 0;
  let from = emulator.clock.now().getTime();
  const sleeps: number[] = [];
  const due: Array<{ at: number; action: () => void }> = [];
  let closed = false;
  const monotonic = () => emulator.clock.now().getTime() + ahead;
  const clock: FakeClock = {
    sleeps,
    now: monotonic,
    monotonic,
    advance: (ms) => void emulator.clock.advance({ ms }),
    shiftWall: () => {
      throw new Error('a rewindable sandbox keeps the client clock on the service clock');
    },
    close: () => void (closed = true),
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      if (closed) throw sleepAfterClose();
      sleeps.push(ms);
      emulator.clock.advance({ ms });
      for (const entry of due.filter((d) => monotonic() >= d.at)) {
        due.splice(due.indexOf(entry), 1);
        entry.action();
      }
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    },
  };
  const lost: History[] = [];
  const clients: PartnerClient[] = [];
  return {
    sandbox: emulator,
    key,
    clock,
    lost,
    at: (at, action) => void due.push({ at, action }),
    client: (extra = {}) => {
      const client = new PartnerClient({ apiKey: key, baseUrl: BASE, clock, ...extra });
      clients.push(client);
      return client;
    },
    rewind(populate) {
      const before = monotonic();
      lost.push({ changes: emulator.inspect.changes(key), from, until: emulator.clock.now().getTime() });
      emulator.reset();
      ahead = before - emulator.clock.now().getTime();
      from = before;
      emulator.populate(key, populate);
    },
    async close() {
      clock.close();
      await Promise.all(clients.map((c) => c.close()));
      server.close();
    },
  };
}

/**
 * A watcher on `checkpoint`, its answers' time rewritten by `rewrite`, until the client's clock
 * reaches `until` (stopped in a wait, so everything it delivered is saved). Each event goes to
 * `events`, and the service's time it was delivered at to `deliveredAt`.
 */
export async function watchUntil(
  env: RewindableEnv,
  checkpoint: Checkpoint,
  options: Omit<WatchOptions, 'checkpoint' | 'signal'>,
  rewrite: (answer: TimedAnswer) => TimeRewrite,
  until: number,
  events: PartnerEvent[] = [],
  deliveredAt: number[] = [],
) {
  const stop = new AbortController();
  env.at(until, () => stop.abort());
  const client = env.client({ fetch: serviceTimeProxy(env, rewrite), logger: {} });
  const watcher = watchEvents(client, { ...options, checkpoint, signal: stop.signal });
  for await (const event of watcher) {
    events.push(event);
    deliveredAt.push(env.sandbox.clock.now().getTime());
  }
  return { events, watcher };
}
