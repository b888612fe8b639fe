/**
 * Answers a broken or hostile server (or proxy) may send, over a real HTTP port: redirects,
 * endless bodies, error text with control codes or the client's own key, and partners' hooks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  HookError,
  PartnerClient,
  RedirectError,
  ResponseTooLargeError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/index.js';
import { startScriptedServer, useScriptedServer } from './scripted-server.js';

const KEY = 'crp_test_hostile-key-0123456789';
const { server, client, clients } = useScriptedServer(KEY, { maxRetries: 0 });
const get = (c: PartnerClient) => c.request({ method: 'GET', path: '/thing' });
/** Everything an error shows: message, stack, JSON, cause chain. */
const visible = (error: unknown) => {
  const e = error as Error & { toJSON?: () => unknown };
  return [
    e.message,
    e.stack,
    JSON.stringify(e.toJSON?.()),
    String((e.cause as Error | undefined)?.message),
    String((e.cause as Error | undefined)?.stack),
  ].join('\n');
};

describe('redirects are not followed', () => {
  it.each([300, 301, 302, 307, 308])(
    'a %i is a RedirectError saying where it pointed, and nothing is re-sent there',
    async (status) => {
      const elsewhere = await startScriptedServer();
      try {
        server.script({ status, headers: { location: `${elsewhere.url}/steal` } });
        const error = (await client()
          .request({ method: 'POST', path: '/locations', body: { a: 1 } })
          .catch((e: unknown) => e)) as RedirectError;
        expect(error).toBeInstanceOf(RedirectError);
        expect(error.location).toBe(`${elsewhere.url}/steal`);
        expect(error.message).toBe(
          `The service answered POST /partner/v1/locations with a ${status} redirect to ${elsewhere.url}/steal. The SDK does not follow redirects (one could carry the key or a body elsewhere): check the base URL.`,
        );
        expect(error.status).toBe(status);
        expect(elsewhere.received).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    },
  );
});

describe('response bodies are read with a cap', () => {
  it('an endless body fails with ResponseTooLargeError after at most the cap, quickly', async () => {
    server.script({ status: 200, endless: 64 * 1024 });
    const started = Date.now();
    const error = (await get(client({ maxResponseBytes: 1024 * 1024 })).catch(
      (e: unknown) => e,
    )) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.limitBytes).toBe(1024 * 1024);
    expect(error.message).toBe(
      'The response to GET /partner/v1/thing (200) was more than the limit of 1048576 bytes, so it was not read. Raise maxResponseBytes if that is expected.',
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a declared length over the cap is refused without reading the body', async () => {
    server.script({ status: 200, body: 'y'.repeat(5000) });
    const error = await get(client({ maxResponseBytes: 4096 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/5000 bytes, over the limit of 4096 bytes/);
  });

  it('a body within the cap is read', async () => {
    server.script({ status: 200, body: JSON.stringify({ x: 'z'.repeat(3000) }) });
    await expect(get(client({ maxResponseBytes: 4096 }))).resolves.toMatchObject({ x: expect.any(String) });
  });
});

describe("the service's error text is cleaned", () => {
  it('removes ANSI codes and control characters, caps the length, and redacts our own key echoed back', async () => {
    const message = `\u001b[31mbad\u001b[0m\r\nFAKE LOG LINE\u0007 key was Bearer ${KEY} ${'long '.repeat(200)}`;
    server.script({
      status: 400,
      body: JSON.stringify({ error: { code: 'validation_error', message, field: `name\u001b[2J` } }),
    });
    const error = (await get(client()).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(error.message).toContain('bad FAKE LOG LINE key was Bearer [redacted]');
    expect(error.message.length).toBeLessThan(450);
    expect(error.field).toBe('name');
    expect(visible(error)).not.toContain(KEY);
  });
});

describe('a success the SDK cannot read', () => {
  it('is an UnexpectedResponseError after one attempt: a body that is not JSON is not asked for again', async () => {
    server.fallback = { status: 200, body: '<html>proxy</html>' };
    try {
      const error = (await client({ maxRetries: 2 })
        .request({ method: 'GET', path: '/x' })
        .catch((e: unknown) => e)) as UnexpectedResponseError;
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.attempts).toBe(1);
      expect(server.received).toHaveLength(1);
    } finally {
      server.fallback = { status: 200, body: '{"ok":true}' };
    }
  });
});

describe('a dropped connection', () => {
  it('is a ConnectionError that does not carry the key', async () => {
    const dropper = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(dropper.address() as AddressInfo).port}`;
      const c = new PartnerClient({ apiKey: KEY, baseUrl: url, maxRetries: 0 });
      clients.push(c);
      const error = await get(c).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(visible(error)).not.toContain(KEY);
    } finally {
      dropper.close();
    }
  });
});

describe("partners' hooks (ky's shape) on every attempt", () => {
  it('beforeRequest adds a header the server receives on each attempt; afterResponse sees each response', async () => {
    const seen: number[] = [];
    const c = client({
      maxRetries: 1,
      clock: { now: Date.now, sleep: async () => undefined },
      hooks: {
        beforeRequest: [
          (request, options) =>
            void request.headers.set(
              'x-trace-id',
              `t-${(options as { context: { attempt: number } }).context.attempt}`,
            ),
        ],
        afterResponse: [(_request, _options, response) => void seen.push(response.status)],
      },
    });
    server.script({ status: 503, body: '' });
    await get(c);
    expect(server.received.map((r) => r.headers['x-trace-id'])).toEqual(['t-1', 't-2']);
    expect(seen).toEqual([503, 200]);
  });

  it.each(['beforeRequest', 'afterResponse'] as const)(
    'a %s hook that throws fails the call with HookError naming it, without the key',
    async (kind) => {
      const hook = (request: Request) => {
        throw new Error(`boom with ${request.headers.get('authorization')}`);
      };
      const hooks = kind === 'beforeRequest' ? { beforeRequest: [() => undefined, hook] } : { afterResponse: [hook] };
      const error = (await get(client({ hooks })).catch((e: unknown) => e)) as HookError;
      expect(error).toBeInstanceOf(HookError);
      expect(error.code).toBe('hook_failed');
      expect(error.hook).toBe(kind === 'beforeRequest' ? 'hooks.beforeRequest[1]' : 'hooks.afterResponse[0]');
      expect(error.message).toContain(
        `Your ${error.hook} hook threw during GET /partner/v1/thing: boom with Bearer [redacted]`,
      );
      expect(visible(error)).not.toContain(KEY);
      expect(server.received).toHaveLength(kind === 'beforeRequest' ? 0 : 1);
    },
  );
});

describe('client.request(), the escape hatch', () => {
  it('sends method, path, query and JSON body under the API prefix, and returns the parsed JSON', async () => {
    server.script({ status: 200, body: '{"made":1}' });
    const out = await client().request({
      method: 'PUT',
      path: '/future/thing-1',
      query: { a: 1, b: true, c: undefined },
      body: { x: 1 },
    });
    expect(out).toEqual({ made: 1 });
    expect(server.received[0]).toMatchObject({
      method: 'PUT',
      url: '/partner/v1/future/thing-1?a=1&b=true',
      body: '{"x":1}',
    });
    expect(server.received[0]!.headers['content-type']).toBe('application/json');
    expect(server.received[0]!.headers.accept).toBe('application/json');
  });

  it('repeats a GET after a dropped connection, a POST only when said to be safe', async () => {
    const drops = { left: 0 };
    const flaky = createServer((req, res) => {
      if (drops.left-- > 0) return void req.socket.destroy();
      res.end('{}');
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
      const c = new PartnerClient({
        apiKey: KEY,
        baseUrl: url,
        clock: { now: Date.now, sleep: async () => undefined },
      });
      clients.push(c);
      drops.left = 1;
      await expect(c.request({ method: 'GET', path: '/x' })).resolves.toEqual({});
      drops.left = 1;
      await expect(c.request({ method: 'POST', path: '/x' })).rejects.toBeInstanceOf(ConnectionError);
      drops.left = 1;
      await expect(c.request({ method: 'POST', path: '/x', retrySafe: true })).resolves.toEqual({});
    } finally {
      flaky.close();
    }
  });

  it.each([
    ['a path without a leading slash', { method: 'GET', path: 'summary' }],
    ['a path with ..', { method: 'GET', path: '/a/../b' }],
    ['a path with a query', { method: 'GET', path: '/a?b=1' }],
    ['an unknown method', { method: 'TRACE', path: '/a' }],
    ['an unknown field', { method: 'GET', path: '/a', hedaers: {} }],
  ])('refuses %s before sending', async (_name, raw) => {
    await expect(client().request(raw as never)).rejects.toMatchObject({ code: 'configuration_error' });
    expect(server.received).toHaveLength(0);
  });
});

describe('telemetry', () => {
  it('reports a call with operation request, injects headers through attemptStart, and costs nothing when absent', async () => {
    const starts: unknown[] = [];
    const c = client({
      telemetry: {
        startCall: (call) => {
          starts.push(call);
          return { attemptStart: ({ headers }) => void (headers.traceparent = '00-abc-def-01') };
        },
      },
    });
    server.script({ status: 200, headers: { 'x-request-id': 'req_1' }, body: '{}' });
    await get(c);
    expect(starts).toEqual([
      {
        operation: 'request',
        method: 'GET',
        urlTemplate: '/partner/v1/thing',
        serverAddress: '127.0.0.1',
        serverPort: Number(new URL(server.url).port),
      },
    ]);
    expect(server.received[0]!.headers.traceparent).toBe('00-abc-def-01');
    expect(JSON.stringify(server.received[0]!.headers)).toContain(KEY); // the key is sent, as it must be
  });
});
