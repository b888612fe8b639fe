/** A sandbox on a real loopback port and a client for it, as the examples are run by partners. */
import { PartnerClient, type ClientOptions } from '@crp/partner-sdk';
import { createSandbox, type Sandbox, type SandboxOptions } from '@crp/partner-sdk/testing';
import { closedAfterEach } from '../helpers/teardown.js';

export interface ExampleEnv {
  sandbox: Sandbox;
  apiKey: string;
  baseUrl: string;
  client: PartnerClient;
  /** Another client on the same key (e.g. to check results independently). */
  newClient(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

export async function startExampleEnv(
  options: SandboxOptions = {},
  clientOptions: ClientOptions = {},
): Promise<ExampleEnv> {
  const sandbox = createSandbox({ seed: 21, ...options });
  const apiKey = sandbox.issueKey();
  const server = await sandbox.listen(0);
  const clients: PartnerClient[] = [];
  const newClient = (extra: ClientOptions = {}) => {
    const client = new PartnerClient({ apiKey, baseUrl: server.url, ...clientOptions, ...extra });
    clients.push(client);
    return client;
  };
  return {
    sandbox,
    apiKey,
    baseUrl: server.url,
    client: newClient(),
    newClient,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

/** In a `describe`: `startExampleEnv`, each environment it starts closed after each test. */
export const useExampleEnv = () => closedAfterEach(startExampleEnv);
