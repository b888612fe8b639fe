import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSandbox,
  SandboxControl,
  type ListeningSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../src/testing/index.js';

/**
 * A web page the developer visits must not drive a sandbox on localhost: not by CSRF (a form or a
 * no-cors fetch to the control API) nor by DNS rebinding (its own name pointed at 127.0.0.1, so
 * the browser sends that name as Host). Each case is a request a browser would send.
 */
interface Reply {
  status: number;
  body: { error?: { code: string; message: string; field?: string } } & Record<string, unknown>;
}

const opened: ListeningSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function serve(
  options: SandboxOptions = {},
  host?: string,
): Promise<{ sandbox: Sandbox; server: ListeningSandbox; key: string }> {
  const sandbox = createSandbox({ seed: 5, ...options });
  const key = sandbox.issueKey();
  const server = await sandbox.listen(0, host);
  opened.push(server);
  return { sandbox, server, key };
}

/** One request to 127.0.0.1 with exactly these headers (Host included), as a browser might send it. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('Host: a sandbox on a real port answers only to its own names (DNS rebinding)', () => {
  it('refuses a foreign Host on the control API and on the partner API alike, and does nothing', async () => {
    const { sandbox, server, key } = await serve();
    const rebound = `attacker.example:${server.port}`;
    const reset = await send(server.port, 'POST', '/_sandbox/reset', { host: rebound, ...JSON_TYPE });
    expect(reset.status).toBe(403);
    expect(reset.body.error).toMatchObject({
      code: 'forbidden_host',
      message: expect.stringMatching(/DNS rebinding.*--allow-host/s),
    });
    const read = await send(server.port, 'GET', '/partner/v1/summary', {
      host: rebound,
      authorization: `Bearer ${key}`,
    });
    expect([read.status, read.body.error?.code]).toEqual([403, 'forbidden_host']);
    expect(read.body).not.toHaveProperty('locations');
    // Nothing reached the service, and the reset did not happen.
    expect(sandbox.requests).toHaveLength(0);
    expect(
      (
        await send(server.port, 'GET', '/partner/v1/summary', {
          host: `127.0.0.1:${server.port}`,
          authorization: `Bearer ${key}`,
        })
      ).status,
    ).toBe(200);
  });

  it('takes localhost, 127.0.0.1 and [::1] on any port (a published port keeps working), and no name that only begins with them', async () => {
    const { server, key } = await serve();
    const auth = { authorization: `Bearer ${key}` };
    for (const host of [
      `localhost:${server.port}`,
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      `LOCALHOST:${server.port}`,
      'localhost:8080',
      'localhost',
      'localhost.',
    ]) {
      expect((await send(server.port, 'GET', '/partner/v1/summary', { host, ...auth })).status, host).toBe(200);
    }
    for (const host of [
      `localhost.attacker.example:${server.port}`,
      `127.0.0.1.nip.io:${server.port}`,
      `attacker.example:${server.port}`,
      `127.0.0.2:${server.port}`,
    ]) {
      expect((await send(server.port, 'GET', '/partner/v1/summary', { host, ...auth })).status, host).toBe(403);
    }
  });

  it('takes the names given in allowedHosts: NAME on any port, NAME:PORT on that port only', async () => {
    const { server, key } = await serve({ allowedHosts: ['sandbox', 'proxy.internal:8080'] });
    const status = async (host: string) =>
      (await send(server.port, 'GET', '/partner/v1/summary', { host, authorization: `Bearer ${key}` })).status;
    expect(await status(`sandbox:${server.port}`)).toBe(200);
    expect(await status('sandbox:9999')).toBe(200);
    expect(await status('proxy.internal:8080')).toBe(200);
    expect(await status('proxy.internal:8081')).toBe(403);
    expect(await status(`other:${server.port}`)).toBe(403);
  });

  it('refuses an allowedHosts entry that is not a host name or address', () => {
    for (const entry of ['http://sandbox', 'sandbox/x', '*', '', 'a b']) {
      expect(() => createSandbox({ allowedHosts: [entry] }), entry).toThrow(/allowedHosts entry/);
    }
  });

  it('bound to 0.0.0.0 it also answers to this machine’s interface addresses', async () => {
    const { server, key } = await serve({ adminToken: 'a-long-admin-token-0123' }, '0.0.0.0');
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      expect(
        (
          await send(server.port, 'GET', '/partner/v1/summary', {
            host: `${address}:${server.port}`,
            authorization: `Bearer ${key}`,
          })
        ).status,
        address,
      ).toBe(200);
    }
    expect(
      (
        await send(server.port, 'GET', '/partner/v1/summary', {
          host: `0.0.0.0.attacker.example:${server.port}`,
          authorization: `Bearer ${key}`,
        })
      ).status,
    ).toBe(403);
  });
});

describe('the control API refuses web pages (CSRF)', () => {
  it('refuses a call carrying a browser Origin, even with the JSON type, and changes nothing', async () => {
    const { server, key } = await serve();
    const host = `127.0.0.1:${server.port}`;
    for (const origin of ['https://attacker.example', 'null', `http://${host}`]) {
      const reset = await send(server.port, 'POST', '/_sandbox/reset', { host, origin, ...JSON_TYPE });
      expect([reset.status, reset.body.error?.code], origin).toEqual([403, 'forbidden_origin']);
      expect(reset.body.error?.message).toMatch(/web pages/);
    }
    const fault = await send(
      server.port,
      'POST',
      '/_sandbox/faults',
      { host, origin: 'https://attacker.example', ...JSON_TYPE },
      '{"status":500,"times":5}',
    );
    expect(fault.status).toBe(403);
    expect((await send(server.port, 'GET', '/_sandbox/faults', { host })).body).toEqual({ pending: 0 });
    expect(
      (await send(server.port, 'GET', '/partner/v1/summary', { host, authorization: `Bearer ${key}` })).status,
    ).toBe(200);
  });

  it('refuses Sec-Fetch-Site cross-site, same-site and same-origin; the address bar (none) may read', async () => {
    const { server } = await serve();
    const host = `127.0.0.1:${server.port}`;
    for (const site of ['cross-site', 'same-site', 'same-origin']) {
      const keys = await send(
        server.port,
        'POST',
        '/_sandbox/keys',
        { host, 'sec-fetch-site': site, ...JSON_TYPE },
        '{}',
      );
      expect([keys.status, keys.body.error?.code], site).toEqual([403, 'forbidden_origin']);
    }
    expect((await send(server.port, 'GET', '/_sandbox', { host, 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('takes a control POST only as application/json, with a body or without', async () => {
    const { server, key } = await serve();
    const host = `127.0.0.1:${server.port}`;
    const cases: Array<[string, Record<string, string>, string | undefined]> = [
      ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
      ['text/plain JSON', { 'content-type': 'text/plain' }, '{"rateLimit":{"limit":1}}'],
      ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      ['no type and no body', {}, undefined],
    ];
    for (const [name, headers, body] of cases) {
      const issued = await send(server.port, 'POST', '/_sandbox/keys', { host, ...headers }, body);
      expect([issued.status, issued.body.error?.code, issued.body.error?.field], name).toEqual([
        415,
        'unsupported_media_type',
        'content-type',
      ]);
    }
    expect((await send(server.port, 'POST', '/_sandbox/reset', { host })).status).toBe(415);
    expect(
      (await send(server.port, 'GET', '/partner/v1/summary', { host, authorization: `Bearer ${key}` })).status,
    ).toBe(200);
    // The JSON type, with parameters and in any case, is taken; DELETE and GET need none.
    expect(
      (
        await send(
          server.port,
          'POST',
          '/_sandbox/keys',
          { host, 'content-type': 'Application/JSON; charset=utf-8' },
          '{}',
        )
      ).status,
    ).toBe(201);
    expect((await send(server.port, 'DELETE', '/_sandbox/faults', { host })).status).toBe(200);
    expect((await send(server.port, 'POST', '/_sandbox/reset', { host, ...JSON_TYPE })).status).toBe(200);
  });

  it('SandboxControl sends what the sandbox requires: a bodiless reset goes through', async () => {
    const { server, key } = await serve();
    const control = new SandboxControl({ baseUrl: server.url });
    await control.advance({ hours: 1 });
    await control.reset();
    expect(
      (
        await send(server.port, 'GET', '/partner/v1/summary', {
          host: `127.0.0.1:${server.port}`,
          authorization: `Bearer ${key}`,
        })
      ).status,
    ).toBe(401);
  });

  it('in-process (handle, msw) the same rules hold for Origin and the content type', async () => {
    const sandbox = createSandbox();
    const post = (headers: Record<string, string>) =>
      sandbox.handle(new Request('https://sandbox.test/_sandbox/keys', { method: 'POST', headers, body: '{}' }));
    expect((await post({ 'content-type': 'application/json', origin: 'https://attacker.example' })).status).toBe(403);
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post({ 'content-type': 'application/json' })).status).toBe(201);
  });
});

describe('what a refused control call is told', () => {
  const sandbox = createSandbox();
  // Without a body: a Request given one and no type would say text/plain itself.
  const refusal = async (headers: Record<string, string>) => {
    const response = await sandbox.handle(
      new Request('https://sandbox.test/_sandbox/keys', { method: 'POST', headers }),
    );
    return ((await response.json()) as Reply['body']).error?.message;
  };

  it('names the browser header it came with, cut short', async () => {
    expect(await refusal({ 'content-type': 'application/json', origin: `https://${'a'.repeat(120)}` })).toContain(
      `came with Origin "https://${'a'.repeat(92)}")`,
    );
    expect(
      await refusal({ 'content-type': 'application/json', origin: 'null', 'sec-fetch-site': 'cross-site' }),
    ).toContain('came with Origin "null")');
    expect(
      await refusal({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site-and-then-some' }),
    ).toContain('came with Sec-Fetch-Site "cross-site-and-then-")');
  });

  it('names the content type it got, or says none was sent; the JSON type is taken with spaces and parameters', async () => {
    expect(await refusal({ 'content-type': `text/${'p'.repeat(120)}` })).toContain(`(got "text/${'p'.repeat(95)}")`);
    expect(await refusal({})).toMatch(
      /^A control POST must carry Content-Type: application\/json, even without a body \(none was sent\)\. With curl/,
    );
    const keys = await sandbox.handle(
      new Request('https://sandbox.test/_sandbox/keys', {
        method: 'POST',
        headers: { 'content-type': ' Application/JSON ; charset=utf-8' },
        body: '{}',
      }),
    );
    expect(keys.status).toBe(201);
  });
});

describe('crp-sandbox --allow-host', () => {
  it('takes names comma-separated (or CRP_SANDBOX_ALLOW_HOSTS) and refuses what is not a host', async () => {
    const { parseOptions, UsageError } = await import('../../src/testing/cli/options.js');
    expect(parseOptions(['--allow-host', 'sandbox, sandbox:8080'], {}).allowHosts).toEqual(['sandbox', 'sandbox:8080']);
    expect(parseOptions([], { CRP_SANDBOX_ALLOW_HOSTS: 'api.test' }).allowHosts).toEqual(['api.test']);
    expect(parseOptions([], {}).allowHosts).toEqual([]);
    expect(() => parseOptions(['--allow-host', 'http://sandbox'], {})).toThrow(UsageError);
  });
});
