/**
 * Case 3 client process: sequential `locations.get` through each client, interleaved in rounds so
 * that machine noise falls on every variant alike. Replies with every per-call time (ms).
 */
import ky from 'ky';
import { serveParent } from '../lib/children.js';
import { loadSdk } from '../lib/paths.js';
import { timeInterleaved } from './interleaved.js';

const { PartnerClient } = await loadSdk();

type Call = () => Promise<unknown>;

serveParent({
  run: async (m) => {
    const {
      url,
      key,
      locationId: id,
      warmup,
      rounds,
      perRound,
      cpu,
    } = m as unknown as {
      url: string;
      key: string;
      locationId: string;
      warmup: number;
      rounds: number;
      perRound: number;
      cpu?: boolean;
    };
    const target = `${url}/partner/v1/locations/${encodeURIComponent(id)}`;
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    const sdk = new PartnerClient({ apiKey: key, baseUrl: url });
    const sdkNoLimiter = new PartnerClient({ apiKey: key, baseUrl: url, rateLimit: false });
    // A bare ky call as a partner would write it with ky alone: an instance with the base URL and
    // key, its own retry and timeout off (the SDK owns those), reading the JSON body.
    const api = ky.create({
      prefixUrl: `${url}/partner/v1/`,
      headers,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
    });
    const path = `locations/${encodeURIComponent(id)}`;
    const variants: Record<string, Call> = {
      fetch: async () => JSON.parse(await (await fetch(target, { headers })).text()) as unknown,
      ky: () => api.get(path).json(),
      sdk: () => sdk.locations.get(id),
      'sdk-no-limiter': () => sdkNoLimiter.locations.get(id),
    };
    const samples = await timeInterleaved(variants, { warmup, rounds, perRound });
    // CPU per call of this process (the sandbox runs elsewhere), least over rounds: what other
    // processes on a shared machine move far less than they move wall time. In ms, as `cpu:<name>`.
    for (let round = 0; cpu && round < rounds; round++) {
      for (const [name, call] of Object.entries(variants)) {
        const before = process.cpuUsage();
        for (let i = 0; i < perRound; i++) await call();
        const used = process.cpuUsage(before);
        (samples[`cpu:${name}`] ??= []).push((used.user + used.system) / perRound / 1000);
      }
    }
    await sdk.close();
    await sdkNoLimiter.close();
    return samples;
  },
});
