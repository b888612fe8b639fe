/**
 * The sandbox on a real port, probed as an attacker or a broken client would: raw sockets, lying
 * Host headers, huge and deep bodies, requests that are not HTTP. Each gets an answer in the
 * error shape, never a buffered upload, a reset or a stack on stderr.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSandbox } from './support/harness.js';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

/** Send `head` (and `body` chunks) on a raw socket; resolve with the first complete response. */
function raw(port: number, head: string, body: Array<string | Buffer> = []): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let settled = false;
    const tryParse = (closed: boolean): void => {
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0 || settled) return;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? Number.NaN);
      const payload = text.slice(end + 4);
      if (!closed && !(payload.length >= length)) return;
      settled = true;
      resolve({
        status: Number(statusLine?.split(' ')[1]),
        headers,
        body: payload.slice(0, Number.isNaN(length) ? undefined : length),
        closed,
      });
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () =>
      settled ? undefined : data.length ? tryParse(true) : reject(new Error('closed without an answer')),
    );
    socket.on('error', () => undefined);
    socket.write(head);
    for (const chunk of body) socket.write(chunk);
  });
}

let stderr: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  stderr = vi.spyOn(console, 'error');
});
afterEach(() => {
  expect(stderr).not.toHaveBeenCalled();
  stderr.mockRestore();
});

const port = (url: string) => Number(new URL(url).port);
/** The Host a client of this sandbox sends (any other is refused: see test/testing/host-and-origin.test.ts). */
const hostOf = (url: string) => new URL(url).host;

describe('request bodies', () => {
  it('answers an unauthenticated 100 MB upload with 401 before reading it, and closes the connection', async () => {
    const h = await openSandbox('http');
    // Only 64 KiB of the announced 100 MB are ever sent: a server that buffered first would never answer.
    const r = await raw(
      port(h.baseUrl),
      `POST /partner/v1/locations HTTP/1.1\r\nHost: ${hostOf(h.baseUrl)}\r\ncontent-type: application/json\r\ncontent-length: ${100 * 1024 * 1024}\r\n\r\n`,
      ['{"a":"', 'x'.repeat(64 * 1024)],
    );
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.code).toBe('unauthorized');
    expect(r.headers.connection).toBe('close');
  });

  it('refuses an authenticated body over 256 KiB with 413 in the error shape, announced or streamed', async () => {
    const h = await openSandbox('http');
    const announced = await raw(
      port(h.baseUrl),
      `POST /partner/v1/locations HTTP/1.1\r\nHost: ${hostOf(h.baseUrl)}\r\nauthorization: Bearer ${h.key}\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n`,
      ['{'],
    );
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body).error).toMatchObject({ code: 'payload_too_large' });
    expect(announced.headers['x-request-id']).toMatch(/^req_/);
    expect(announced.headers['ratelimit-remaining']).toBe('599');
    // Chunked, no length given: cut off once past the cap, long before the (endless) end.
    const chunk = 'x'.repeat(64 * 1024);
    const streamed = await raw(
      port(h.baseUrl),
      `POST /partner/v1/locations HTTP/1.1\r\nHost: ${hostOf(h.baseUrl)}\r\nauthorization: Bearer ${h.key}\r\ntransfer-encoding: chunked\r\n\r\n`,
      Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`),
    );
    expect(streamed.status).toBe(413);
    // With fetch, the same.
    const viaFetch = await h.call('PUT', '/settings', {
      rawBody: JSON.stringify({ surcharge_per_video_cents: 1, pad: 'x'.repeat(300 * 1024) }),
    });
    expect([viaFetch.status, viaFetch.body.error.code]).toEqual([413, 'payload_too_large']);
  });

  it('answers rules nested 10,000 deep with 400, not 500', async () => {
    const h = await openSandbox('http');
    const deep = `${'{"x":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const r = await h.call('POST', '/locations', {
      rawBody: `{"partner_location_id":"d-1","name":"D","address":{"line1":"1 A St","city":"SF","state":"CA","postal_code":"94105","country":"US"},"rules":${deep}}`,
    });
    expect([r.status, r.body.error.code, r.body.error.field]).toEqual([400, 'validation_error', '(body)']);
    expect((await h.enroll('d-1')).status).toBe(201);
    const arrays = await h.call('PATCH', '/locations/d-1', {
      rawBody: `{"dishes":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    });
    expect(arrays.status).toBe(400);
  });
});

describe('routing', () => {
  it('routes from the request path, never from the Host header, and refuses a Host that is not its own', async () => {
    const h = await openSandbox('http', { allowedHosts: ['sandbox.crp.test'] });
    for (const host of ['x/partner/v1/settings#', 'evil.example/partner/v1/settings?']) {
      const r = await raw(
        port(h.baseUrl),
        `GET /partner/v1/summary HTTP/1.1\r\nHost: ${host}\r\nauthorization: Bearer ${h.key}\r\n\r\n`,
      );
      expect([r.status, JSON.parse(r.body).error.code], host).toEqual([403, 'forbidden_host']);
    }
    for (const host of [hostOf(h.baseUrl), 'sandbox.crp.test']) {
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(
          {
            port: port(h.baseUrl),
            host: '127.0.0.1',
            path: '/partner/v1/summary',
            headers: { host, authorization: `Bearer ${h.key}` },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(Object.keys(JSON.parse(body)), host).toContain('generated_at');
    }
  });

  it('takes an absolute-form target by its path, and a protocol-relative path as a path', async () => {
    const h = await openSandbox('http');
    const absolute = await raw(
      port(h.baseUrl),
      `GET http://elsewhere.example/partner/v1/settings HTTP/1.1\r\nHost: ${hostOf(h.baseUrl)}\r\nauthorization: Bearer ${h.key}\r\n\r\n`,
    );
    expect(JSON.parse(absolute.body)).toEqual({ surcharge_per_video_cents: 0, currency: 'USD' });
    const slashes = await raw(
      port(h.baseUrl),
      `GET //evil.example/partner/v1/settings HTTP/1.1\r\nHost: ${hostOf(h.baseUrl)}\r\nauthorization: Bearer ${h.key}\r\n\r\n`,
    );
    expect(slashes.status).toBe(404);
  });
});

describe('requests that are not well-formed', () => {
  const cases: Array<[string, string]> = [
    ['not HTTP at all', 'GARBAGE\r\n\r\n'],
    ['a bad header line', 'GET /partner/v1/summary HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['an unparseable absolute target', 'GET http://[::1/partner/v1/summary HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a target that is not a path', 'GET partner/v1/summary HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a method fetch cannot carry', 'TRACE /partner/v1/summary HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ];
  it.each(cases)('%s gets a 400 in the error shape, not a reset', async (_name, text) => {
    const h = await openSandbox('http');
    const r = await raw(port(h.baseUrl), text);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe('validation_error');
    // The server is still there.
    expect((await h.call('GET', '/summary')).status).toBe(200);
  });
});
