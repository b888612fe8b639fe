/**
 * A sandbox whose incoming request headers are recorded as the server received them (the
 * sandbox's own request log keeps no headers): in-process, an msw handler placed before the
 * sandbox's; over a real port, a small HTTP proxy in front of `sandbox.listen()`.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { PartnerClient, type ClientOptions } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { instantClock, type TransportKind } from '../helpers/sdk-env.js';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface RecordingEnv {
  sandbox: ReturnType<typeof createSandbox>;
  key: string;
  baseUrl: string;
  /** Every request as the server received it, oldest first. */
  received: Received[];
  client(options?: ClientOptions): PartnerClient;
  close(): Promise<void>;
}

const MSW_BASE = 'https://sandbox.crp.test';

export async function startRecordingEnv(kind: TransportKind): Promise<RecordingEnv> {
  const sandbox = createSandbox({ seed: 11 });
  const key = sandbox.issueKey();
  const received: Received[] = [];
  const clients: PartnerClient[] = [];
  let baseUrl: string;
  let stop: () => Promise<void>;
  if (kind === 'msw') {
    // Returns nothing, so msw goes on to the sandbox's handlers.
    const record = http.all(`${MSW_BASE}/*`, ({ request }) => {
      received.push({ method: request.method, path: new URL(request.url).pathname, headers: Object.fromEntries(request.headers) });
    });
    const server = setupServer(record, ...sandbox.mswHandlers(MSW_BASE));
    server.listen({ onUnhandledRequest: 'error' });
    baseUrl = MSW_BASE;
    stop = async () => server.close();
  } else {
    const upstream = await sandbox.listen(0);
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method ?? '', path: new URL(req.url ?? '/', 'http://x').pathname, headers: flatten(req.headers) });
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        fetch(`${upstream.url}${req.url}`, { method: req.method ?? 'GET', headers: flatten(req.headers), ...(body ? { body } : {}) })
          .then(async (answer) => {
            const headers = Object.fromEntries(answer.headers);
            // fetch has already decoded the body and will give its own length.
            delete headers['content-encoding'];
            delete headers['content-length'];
            res.writeHead(answer.status, headers);
            res.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    stop = async () => {
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      await upstream.close();
    };
  }
  return {
    sandbox,
    key,
    baseUrl,
    received,
    client(extra: ClientOptions = {}) {
      const client = new PartnerClient({ apiKey: key, baseUrl, clock: instantClock(), ...extra });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await stop();
    },
  };
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || name === 'connection' || name === 'content-length' || name === 'transfer-encoding') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
