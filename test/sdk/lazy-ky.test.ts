/**
 * ky is loaded by the first call, not at import or construction: evaluating ky builds a Request,
 * which loads Node's fetch implementation (~20 ms of start-up). Concurrent first calls share one load.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../transport/scripted-server.js';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('ky', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

it('is loaded by the first call, once, and not by import or construction', async () => {
  const { PartnerClient } = await import('../../src/index.js');
  const client = new PartnerClient({ apiKey: 'crp_test_lazy-ky-0123456789', baseUrl: server.url, rateLimit: false });
  expect(loads.count).toBe(0);
  const answers = await Promise.all([1, 2, 3].map(() => client.request({ method: 'GET', path: '/thing' })));
  expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  expect(loads.count).toBe(1);
  await client.request({ method: 'GET', path: '/thing' });
  expect(loads.count).toBe(1);
  await client.close();
});
