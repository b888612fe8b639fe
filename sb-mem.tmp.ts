import { createSandbox } from './src/testing/index.js';
const sandbox = createSandbox({ seed: 1, rateLimitClock: 'simulated' });
const key = sandbox.issueKey({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 100_000; i++) {
  await sandbox.handle(new Request('https://x.test/partner/v1/summary', { headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'user-agent': 'crp-partner-sdk/0.1.0 node/20', traceparent: `00-${i.toString(16).padStart(32, '0')}-${i.toString(16).padStart(16, '0')}-01`, 'x-crp-attempt': '1' } }));
}
globalThis.gc?.();
console.log('heap growth MB', ((process.memoryUsage().heapUsed - before) / 1e6).toFixed(1), sandbox.requests.length, JSON.stringify(sandbox.requests.at(-1)));
