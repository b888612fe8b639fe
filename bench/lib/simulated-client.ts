/**
 * A client on an in-process sandbox and its simulated time: its fetch is the sandbox's handler,
 * its clock the sandbox's (a sleep advances it), and its calls are counted per simulated minute.
 * For the benches that run days of the service in minutes (events, sync-fleet).
 */

/** What the helper needs of a sandbox (`createSandbox()` from the sources or from the build). */
export interface SimulatedSandbox {
  clock: { now(): Date; advance(by: { ms: number }): unknown };
  handle(request: Request): Promise<Response>;
}

/** What the helper needs of the client's class (`PartnerClient` from the sources or from the build). */
export type ClientClass<C> = new (options: {
  apiKey: string;
  baseUrl: string;
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}) => C;

export const MINUTE = 60_000;

export interface SimulatedClient<C> {
  client: C;
  clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
  /** Calls made in each simulated minute (key: minutes since the epoch). */
  perMinute: Map<number, number>;
}

/** `onResponse` sees each call's path and the sandbox's answer (to count 429s, calls by path). */
export function simulatedClient<C>(
  Client: ClientClass<C>,
  sandbox: SimulatedSandbox,
  apiKey: string,
  onResponse?: (path: string, response: Response) => void,
): SimulatedClient<C> {
  const perMinute = new Map<number, number>();
  const clock = {
    now: () => sandbox.clock.now().getTime(),
    sleep: async (ms: number, signal?: AbortSignal) => {
      sandbox.clock.advance({ ms });
      if (signal?.aborted) throw signal.reason;
    },
  };
  const client = new Client({
    apiKey,
    baseUrl: 'https://bench.crp.test',
    clock,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const minute = Math.floor(clock.now() / MINUTE);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      const request = input instanceof Request ? input : new Request(input, init);
      const response = await sandbox.handle(request);
      onResponse?.(new URL(request.url).pathname, response);
      return response;
    },
  });
  return { client, clock, perMinute };
}
