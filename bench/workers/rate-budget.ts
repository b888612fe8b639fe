/**
 * Cases 1 and 2, one client process: `calls` GETs with at most `concurrency` in flight, the way
 * named by `way`. Waits for `go` so that several processes can start together.
 *   sdk        PartnerClient (limiter on; `redisPort` shares the budget through Redis)
 *   ky         ky with its built-in retry (honours Retry-After on 429), limit raised to 10
 *   p-retry    fetch + p-retry (10 retries, its default backoff), no limiter
 */
import ky from 'ky';
import pRetry from 'p-retry';
import { serveParent } from '../lib/children.js';
import { loadRedis, loadSdk } from '../lib/paths.js';
import { pool } from '../lib/stats.js';

const { PartnerClient } = await loadSdk();
const { redisBudget } = await loadRedis();

interface Job {
  way: 'sdk' | 'ky' | 'p-retry';
  url: string;
  key: string;
  locationId: string;
  calls: number;
  concurrency: number;
  redisPort?: number;
}

let job: Job | undefined;
let call: (() => Promise<unknown>) | undefined;
let close: () => Promise<void> = async () => undefined;

serveParent({
  prepare: (m) => {
    job = m.job as Job;
    const { url, key, locationId, way, redisPort } = job;
    const target = `${url}/partner/v1/locations/${encodeURIComponent(locationId)}`;
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    if (way === 'sdk') {
      const client = new PartnerClient({
        apiKey: key,
        baseUrl: url,
        ...(redisPort ? { rateLimit: { shared: redisBudget({ host: '127.0.0.1', port: redisPort }) } } : {}),
      });
      call = () => client.locations.get(locationId);
      close = () => client.close();
    } else if (way === 'ky') {
      const api = ky.create({ headers, retry: { limit: 10 } });
      call = () => api.get(target).json();
    } else {
      call = () =>
        pRetry(
          async () => {
            const response = await fetch(target, { headers });
            const text = await response.text();
            if (!response.ok) throw new Error(`HTTP ${response.status}`);
            return JSON.parse(text) as unknown;
          },
          { retries: 10 },
        );
    }
    return true;
  },
  go: async () => {
    if (!job || !call) throw new Error('prepare first');
    const task = call;
    const startedAt = Date.now();
    const { failures } = await pool(job.calls, job.concurrency, () => task());
    const endedAt = Date.now();
    await close();
    return { startedAt, endedAt, failures };
  },
});
