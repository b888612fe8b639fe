import { setupServer } from 'msw/node';
import { PartnerClient, type ClientOptions } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { fakeClock } from './fake-clock.js';
import { closedAfterEach } from './teardown.js';

export type Sandbox = ReturnType<typeof createSandbox>;
export type SandboxOptions = NonNullable<Parameters<typeof createSandbox>[0]>;

export interface SdkEnv {
  sandbox: Sandbox;
  key: string;
  baseUrl: string;
  /** A client for this sandbox; extra options override the defaults. */
  client(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

export type TransportKind = 'msw' | 'http';
export const TRANSPORTS: TransportKind[] = ['msw', 'http'];

const MSW_BASE = 'https://sandbox.crp.test';

/**
 * A sandbox reached through msw in-process or over a real loopback port, with one key and
 * clients that talk to it. Every SDK test runs over both.
 */
export async function startSdkEnv(kind: TransportKind, options: SandboxOptions = {}): Promise<SdkEnv> {
  const sandbox = createSandbox({ seed: 7, ...options });
  const key = sandbox.issueKey();
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
    baseUrl,
    client(extra: ClientOptions = {}) {
      const client = new PartnerClient({ apiKey: key, baseUrl, clock: fakeClock(), ...extra });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await stop();
    },
  };
}

/** In a `describe` or at a file's top: `startSdkEnv`, each environment it starts closed after each test. */
export const useSdkEnv = () => closedAfterEach(startSdkEnv);

export const address = (n: number) => ({
  line1: `${n} Market St`,
  city: 'San Francisco',
  state: 'CA',
  postal_code: `9410${(n % 9) + 1}`,
  country: 'US',
});

export const weekly = {
  mon: [{ open: '11:00', close: '22:00' }],
  tue: [{ open: '11:00', close: '22:00' }],
  wed: [{ open: '11:00', close: '22:00' }],
  thu: [{ open: '11:00', close: '22:00' }],
  fri: [{ open: '11:00', close: '23:00' }],
  sat: [{ open: '10:00', close: '23:00' }],
  sun: [{ open: '10:00', close: '21:00' }],
};
