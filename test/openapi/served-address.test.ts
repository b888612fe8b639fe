/**
 * The served document's `servers` names the address the caller reached, so a client generated
 * from `GET /openapi.json` of a sandbox on any port calls that sandbox, not port 4010.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';

type Served = Awaited<ReturnType<Sandbox['listen']>>;

/** GET `path` with this exact Host header (fetch would not let a test set it). */
function getWithHost(server: Served, host: string, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const serversOf = (body: unknown) => (body as { servers: Array<{ url: string }> }).servers.map((s) => s.url);

describe("the served document's servers", () => {
  let server: Served;
  beforeAll(async () => {
    server = await createSandbox({ allowedHosts: ['sandbox'] }).listen(0);
  });
  afterAll(() => server.close());

  it('name the port the sandbox is on, and a client built from them reaches it', async () => {
    expect(server.port).not.toBe(4010);
    const served = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(serversOf(served)).toEqual([server.url]);
    const clock = await fetch(`${serversOf(served)[0]}/_sandbox/clock`);
    expect(clock.status).toBe(200);
  });

  it('follow the Host the caller used, once the Host rule accepts it', async () => {
    expect(serversOf((await getWithHost(server, `localhost:${server.port}`, '/openapi.json')).body)).toEqual([
      `http://localhost:${server.port}`,
    ]);
    // A published port (a container's -p 8080:…) or an allowed name: the address the caller knows.
    expect(serversOf((await getWithHost(server, 'sandbox:8080', '/openapi.json')).body)).toEqual([
      'http://sandbox:8080',
    ]);
    const refused = await getWithHost(server, 'evil.test', '/openapi.json');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'forbidden_host' } });
  });

  it('in-process (msw, handle), name the origin the request was made to', async () => {
    const got = await createSandbox().handle(new Request('https://partner.sandbox.test/openapi.json'));
    expect(serversOf(await got.json())).toEqual(['https://partner.sandbox.test']);
  });
});
