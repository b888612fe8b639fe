/**
 * A client on a sandbox and its simulated time: its clock is the sandbox's (a sleep advances it),
 * and its calls are counted per simulated minute. For the benches that run days of the service in
 * minutes (events, sync-fleet). `simulatedClient` runs the sandbox in-process (its fetch is the
 * sandbox's handler); `remoteSimulatedClient` reaches a sandbox in a process of its own over a
 * loopback port (bench/workers/fleet-sandbox.ts), so that the measuring process holds only the client.
 */
import type { DeliveredEvent } from '../../test/events/coverage.js';
import { startWorker, type Worker } from './children.js';

/** What the helper needs of a sandbox (`createSandbox()` from the sources or from the build). */
export interface SimulatedSandbox {
  clock: { now(): Date; advance(by: { ms: number }): unknown };
  handle(request: Request): Promise<Response>;
}

export interface SimulatedClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What the helper needs of the client's class (`PartnerClient` from the sources or from the build). */
export type ClientClass<C> = new (options: {
  apiKey: string;
  baseUrl: string;
  clock: SimulatedClock;
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}) => C;

export const MINUTE = 60_000;

export interface SimulatedClient<C> {
  client: C;
  clock: SimulatedClock;
  /** Calls made in each simulated minute (key: minutes since the epoch). */
  perMinute: Map<number, number>;
}

/**
 * `onResponse` sees each call's path and query, the sandbox's answer and the simulated minute the call began
 * in (minutes since the epoch): to count 429s, calls by path and by minute.
 */
export type OnResponse = (path: string, response: Response, minute: number) => void;

/** A client whose fetch is an in-process sandbox's handler. */
export function simulatedClient<C>(
  Client: ClientClass<C>,
  sandbox: SimulatedSandbox,
  apiKey: string,
  onResponse?: OnResponse,
): SimulatedClient<C> {
  const clock: SimulatedClock = {
    now: () => sandbox.clock.now().getTime(),
    sleep: async (ms, signal) => {
      sandbox.clock.advance({ ms });
      if (signal?.aborted) throw signal.reason;
    },
  };
  return countingClient(Client, clock, apiKey, 'https://bench.crp.test', (r) => sandbox.handle(r), onResponse);
}

/** A sandbox in a child process (bench/workers/fleet-sandbox.ts) and how to drive it. */
export interface RemoteSandbox {
  url: string;
  worker: Worker;
  /** The child's simulated time, read once at start; the client's clock keeps it after that. */
  startMs: number;
  issueKey(): Promise<string>;
  close(): Promise<void>;
}

export async function startRemoteSandbox(options: {
  seed: number;
  limit: number;
  windowMs?: number;
  visitsPerWeek?: number;
}): Promise<RemoteSandbox> {
  // BENCH_CPU_PROF_DIR: a CPU profile of the sandbox's process too (node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF_DIR;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const worker = startWorker('fleet-sandbox', [JSON.stringify(options)], ['--max-old-space-size=16384', ...flags]);
  await worker.next('ready');
  const url = await worker.call<string>({ type: 'url' });
  const startMs = await worker.call<number>({ type: 'now' });
  return {
    url,
    worker,
    startMs,
    issueKey: () => worker.call<string>({ type: 'key' }),
    close: async () => {
      await worker.call({ type: 'close' }).catch(() => undefined);
      await worker.stop();
    },
  };
}

/**
 * A client on a sandbox in another process. Only this client moves the sandbox's clock, so the
 * clock's `now()` is kept here (synchronous, as the SDK needs) and each sleep advances both.
 */
export function remoteSimulatedClient<C>(
  Client: ClientClass<C>,
  sandbox: RemoteSandbox,
  apiKey: string,
  onResponse?: OnResponse,
): SimulatedClient<C> {
  let now = sandbox.startMs;
  const clock: SimulatedClock = {
    now: () => now,
    sleep: async (ms, signal) => {
      const after = await sandbox.worker.call<number>({ type: 'advance', ms });
      now = Math.max(now, after);
      if (signal?.aborted) throw signal.reason;
    },
  };
  return countingClient(Client, clock, apiKey, sandbox.url, (r) => fetch(r), onResponse);
}

function countingClient<C>(
  Client: ClientClass<C>,
  clock: SimulatedClock,
  apiKey: string,
  baseUrl: string,
  send: (request: Request) => Promise<Response>,
  onResponse: OnResponse | undefined,
): SimulatedClient<C> {
  const perMinute = new Map<number, number>();
  const client = new Client({
    apiKey,
    baseUrl,
    clock,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const minute = Math.floor(clock.now() / MINUTE);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      const request = input instanceof Request ? input : new Request(input, init);
      const response = await send(request);
      const url = new URL(request.url);
      onResponse?.(url.pathname + url.search, response, minute);
      return response;
    },
  });
  return { client, clock, perMinute };
}

/**
 * A delivered booking or video event as `coverage()` (test/events/coverage.ts) matches it against
 * the sandbox's change log; undefined for the store family's events, which are store records, not
 * changes of that log.
 */
export function delivered(event: {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}): DeliveredEvent | undefined {
  if (event.type === 'location.updated') return undefined;
  const d = event.data as DeliveredEvent['data'];
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    data: {
      reservation_id: d.reservation_id,
      status: d.status,
      acknowledged_kind: d.acknowledged_kind,
      video_id: d.video_id,
    },
  };
}
