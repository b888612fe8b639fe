// Type-checked by scripts/check-package.mjs in a consumer project (module/moduleResolution nodenext),
// from ESM: the import condition's .d.ts must resolve and describe the API; and, copied as types.cts,
// from CommonJS: the require condition's .d.cts must too.
import { PartnerClient, NotFoundError, isPartnerError, type Location, type Reservation } from '@crp/partner-sdk';
import { createSandbox, type Sandbox } from '@crp/partner-sdk/testing';
import { redisBudget, type RedisConnection } from '@crp/partner-sdk/redis';
import type { RateLimitOptions, SharedBudget } from '@crp/partner-sdk';

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

const connection: RedisConnection = { host: '127.0.0.1', port: 6379 };
const shared: SharedBudget = redisBudget(connection);
export const sharedClient = new PartnerClient({ rateLimit: { shared } });
export const viaUrl: RateLimitOptions = { shared: redisBudget('redis://127.0.0.1:6379') };
// @ts-expect-error: rateLimit.redis is not an option (the shared budget is rateLimit: { shared: redisBudget(redis) })
export const removed: RateLimitOptions = { redis: 'redis://127.0.0.1:6379' };
// @ts-expect-error: shared takes a budget made by redisBudget(), not a URL
export const notABudget: RateLimitOptions = { shared: 'redis://127.0.0.1:6379' };
