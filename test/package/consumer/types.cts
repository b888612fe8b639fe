// Type-checked by scripts/check-package.mjs in a consumer project (module/moduleResolution nodenext),
// from CommonJS: the require condition's .d.cts must resolve and describe the API.
import { PartnerClient, NotFoundError, isPartnerError, type Location, type Reservation } from '@crp/partner-sdk';
import { createSandbox, type Sandbox } from '@crp/partner-sdk/testing';

const sandbox: Sandbox = createSandbox({ seed: 1 });
const client = new PartnerClient({ apiKey: sandbox.issueKey(), baseUrl: 'http://127.0.0.1:4010' });
export async function walk(): Promise<Location['status'] | Reservation['status'] | undefined> {
  const store = await client.locations.get('x');
  for await (const booking of client.reservations.list({ limit: 10 })) return booking.status;
  try {
    await client.locations.get('y');
  } catch (error) {
    if (error instanceof NotFoundError) return store.status;
    if (isPartnerError(error) && error.code === 'rate_limited') return undefined;
  }
  // @ts-expect-error: limit is a number
  client.reservations.list({ limit: 'ten' });
  return undefined;
}
