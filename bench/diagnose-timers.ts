/**
 * Diagnostic for case 3 (not part of `npm run bench`): how many timers one `locations.get`
 * starts, with the limiter on and off. A `setTimeout(fn, 0)` costs at least 1 ms in Node, so each
 * one on the path of a call is a millisecond added to it.
 *
 *   npx tsx bench/diagnose-timers.ts
 */
import { ensureBuilt, loadSdk, loadTesting } from './lib/paths.js';

ensureBuilt();
const { PartnerClient } = await loadSdk();
const { createSandbox } = await loadTesting();
const sandbox = createSandbox();
const key = sandbox.issueKey({ rateLimit: { limit: 1e9, windowMs: 60_000 } });
const id = sandbox.populate(key, { locations: 1 }).locationIds[0] as string;
const server = await sandbox.listen(0);
const N = 300;
for (const limiter of [true, false]) {
  const client = new PartnerClient({
    apiKey: key,
    baseUrl: server.url,
    ...(limiter ? {} : { rateLimit: false as const }),
  });
  for (let i = 0; i < 100; i++) await client.locations.get(id);
  const original = globalThis.setTimeout;
  const buckets = new Map<string, number>();
  globalThis.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) => {
    const bucket = (ms ?? 0) <= 1 ? `${ms ?? 0} ms` : (ms ?? 0) < 1000 ? '2-999 ms' : '≥ 1 s';
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
    return original(fn, ms, ...args);
  }) as typeof setTimeout;
  const started = performance.now();
  for (let i = 0; i < N; i++) await client.locations.get(id);
  const perCall = (performance.now() - started) / N;
  globalThis.setTimeout = original;
  const counts = [...buckets].map(([bucket, n]) => `${(n / N).toFixed(2)} × ${bucket}`).join(', ');
  console.log(
    `${limiter ? 'limiter on ' : 'rateLimit: false'}  ${perCall.toFixed(2)} ms/call in-process server; setTimeout per call: ${counts}`,
  );
  await client.close();
}
await server.close();
