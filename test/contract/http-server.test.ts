import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';

describe('the real HTTP server', () => {
  it('serves on 127.0.0.1 with a base url without /partner/v1, and keeps connections alive', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    const server = await sandbox.listen(0);
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const r = await fetch(`${server.url}/partner/v1/summary`, { headers: { authorization: `Bearer ${key}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('connection')).toBe('keep-alive');
      expect(r.headers.get('content-length')).toBe(String((await r.text()).length));
    } finally {
      await server.close();
    }
  });

  it('checks the allow-list against the socket remote address, not a header', async () => {
    const sandbox = createSandbox({ callerAddress: '10.1.2.3' });
    const key = sandbox.issueKey({ allowIps: ['10.0.0.0/8'] });
    const server = await sandbox.listen(0);
    try {
      const r = await fetch(`${server.url}/partner/v1/summary`, {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '10.1.2.3' },
      });
      expect(r.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('closes promptly even while a request hangs', async () => {
    const sandbox = createSandbox();
    const server = await sandbox.listen(0);
    sandbox.faults.next({ hang: true });
    const hanging = new Promise<string>((resolve) => {
      const req = httpRequest(`${server.url}/partner/v1/summary`, () => resolve('answered'));
      req.on('error', (e) => resolve(`error: ${e.message}`));
      req.end();
    });
    // Until the sandbox has the request (a fixed pause is not enough on a busy machine).
    while (sandbox.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(500);
    expect(await hanging).toMatch(/^error: socket hang up/);
  });

  it('reads request bodies and passes the request method through', async () => {
    const sandbox = createSandbox();
    const key = sandbox.issueKey();
    const server = await sandbox.listen(0);
    try {
      const r = await fetch(`${server.url}/partner/v1/settings`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ surcharge_per_video_cents: 77 }),
      });
      expect(await r.json()).toEqual({ surcharge_per_video_cents: 77, currency: 'USD' });
    } finally {
      await server.close();
    }
  });
});
