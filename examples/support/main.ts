/**
 * Runs an example on its own: `npx tsx examples/<name>.ts` with PARTNER_API_KEY and
 * PARTNER_API_BASE_URL set (e.g. from `npx -p @crp/partner-sdk crp-sandbox`). Creates the client from the
 * environment, runs `body`, closes the client, and prints a typed error safely (no key) on failure.
 */
import { pathToFileURL } from 'node:url';
import { PartnerClient, isPartnerError, type ClientOptions } from '@crp/partner-sdk';

/** True when the module at `moduleUrl` is the script node/tsx was started with. */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

export function runMain(moduleUrl: string, body: (client: PartnerClient) => Promise<unknown>, options: ClientOptions = {}): void {
  if (!isMain(moduleUrl)) return;
  const client = new PartnerClient(options);
  body(client)
    .finally(() => client.close())
    .catch((error: unknown) => {
      console.error(isPartnerError(error) ? error.toJSON() : error);
      process.exitCode = 1;
    });
}
