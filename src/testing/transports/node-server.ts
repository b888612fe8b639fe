import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from '../http/dispatch.js';

/** A sandbox served over a real port. */
export interface ListeningSandbox {
  /** Base address WITHOUT /partner/v1 (what the SDK takes as baseUrl), e.g. 'http://127.0.0.1:4010'. */
  url: string;
  port: number;
  /** Stop serving and close every connection, idle or not, so the process can exit. */
  close(): Promise<void>;
}

/** Headers a Request must not be built with (they describe the connection, not the request). */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

/**
 * A small node:http adapter (keep-alive on): builds a fetch Request, runs the shared dispatcher
 * with the socket's remote address, and writes the outcome ('reset' destroys the socket,
 * 'hang' leaves it open until the client closes it).
 */
export function listen(dispatch: Dispatcher, port = 0, host = '127.0.0.1'): Promise<ListeningSandbox> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    void respond(dispatch, req, res).catch((error: unknown) => {
      console.error('[crp-sandbox] could not answer', error);
      res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown === '[::]' ? '[::1]' : shown}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function respond(dispatch: Dispatcher, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  });
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readAll(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}),
    signal: controller.signal,
  });
  const outcome = await dispatch(request, { remoteAddress: req.socket.remoteAddress ?? '', signal: controller.signal });
  switch (outcome.type) {
    case 'reset':
      req.socket.destroy();
      return;
    case 'hang':
    case 'aborted':
      return;
    case 'response': {
      const payload = Buffer.from(await outcome.response.arrayBuffer());
      const out: Record<string, string> = {};
      outcome.response.headers.forEach((value, name) => {
        out[name] = value;
      });
      out['content-length'] = String(payload.length);
      res.writeHead(outcome.response.status, out);
      res.end(payload);
    }
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
