/** The sandbox host process, seen from the bench. */
import type { RateLimit } from '@crp/partner-sdk/testing';
import { startWorker, type Worker } from './children.js';

export interface RemoteSandbox {
  url: string;
  key(rateLimit?: RateLimit): Promise<string>;
  populate(
    key: string,
    options: { locations: number; reservationsPerLocation?: number },
  ): Promise<{ locationIds: string[]; reservations: number }>;
  count(filter?: { status?: number; path?: string }): Promise<number>;
  /** Every matching request waits `delayMs` before being served (0: none). */
  latency(delayMs: number, path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(): Promise<RemoteSandbox> {
  const worker: Worker = startWorker('sandbox');
  await worker.next('ready');
  const url = await worker.call<string>({ type: 'url' });
  return {
    url,
    key: (rateLimit) => worker.call<string>({ type: 'key', ...(rateLimit ? { rateLimit } : {}) }),
    populate: (key, options) => worker.call({ type: 'populate', key, options }),
    count: (filter = {}) => worker.call<number>({ type: 'count', filter }),
    latency: async (delayMs, path) => {
      await worker.call({ type: 'latency', delayMs, path });
    },
    close: async () => {
      await worker.call({ type: 'close' }).catch(() => undefined);
      await worker.stop();
    },
  };
}

/** A rate limit no benchmark reaches, for the cases that measure speed rather than budget. */
export const UNLIMITED: RateLimit = { limit: 1_000_000_000, windowMs: 60_000 };
