import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Dispatcher } from '../http/dispatch.js';
import { hostRule, type HostRule } from './allowed-hosts.js';

/** A sandbox served over a real port. */
export interface ListeningSandbox {
  /** Base address WITHOUT /partner/v1 (what the SDK takes as baseUrl), e.g. 'http://127.0.0.1:4010'. */
  url: string;
  /** The port actually bound (useful with port 0). */
  port: number;
  /** The address actually bound, e.g. '127.0.0.1', '::1' or '0.0.0.0'. */
  host: string;
  /** Stop serving and close every connection, idle or not, so the process can exit. */
  close(): Promise<void>;
}

/** Headers a Request must not be built with (they describe the connection, not the request). */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'expect',
  'content-length',
  'proxy-connection',
]);
/**
 * Requests are routed from their path alone: the URL handed to the dispatcher always has this
 * origin, whatever the Host header says (a Host of `x/partner/v1/settings#` must not change the
 * route). The Host is only checked against the names this server answers to (`allowed-hosts.ts`).
 */
const ORIGIN = 'http://sandbox.invalid';

/**
 * A small node:http adapter (keep-alive on): builds a fetch Request whose body streams from the
 * socket (read only if the service gets that far), runs the shared dispatcher with the socket's
 * remote address, and writes the outcome ('reset' destroys the socket, 'hang' leaves it open
 * until the client closes it). A request it cannot make sense of gets 400, never a reset.
 */
export function listen(
  dispatch: Dispatcher,
  port = 0,
  host = '127.0.0.1',
  allowedHosts: readonly string[] = [],
): Promise<ListeningSandbox> {
  let hosts: HostRule | undefined;
  const server = createServer({ keepAlive: true }, (req, res) => {
    void respond(dispatch, hosts as HostRule, req, res).catch(() => {
      // The client went away while the answer was written; nothing more to do with this socket.
      res.destroy();
    });
  });
  // Requests node's parser refuses (bad request line, bad header), and CONNECT: a 400 in the error shape.
  server.on('clientError', (_error, socket: Socket) => badRequestOnSocket(socket));
  server.on('connect', (_req, socket: Socket) => badRequestOnSocket(socket));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      hosts = hostRule({ boundHost: host, address: address.address, port: address.port, allowedHosts });
      resolve({
        url: `http://${urlHost(address)}:${address.port}`,
        port: address.port,
        host: address.address,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** The host part of a URL that reaches this server from the same machine. */
function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

async function respond(
  dispatch: Dispatcher,
  hosts: HostRule,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  });
  const request = toRequest(req, controller.signal);
  if (!request) {
    writeJson(
      res,
      400,
      {
        error: {
          code: 'validation_error',
          message: 'The request could not be read as HTTP: check the request line, the path and the method.',
          field: '(request)',
        },
      },
      true,
    );
    return;
  }
  // Every route, not only the control API: a rebinding page could otherwise read data with a (seeded, guessable) key.
  const refusal = hosts.refusal(req.headers.host);
  if (refusal !== undefined) {
    writeJson(res, 403, { error: { code: 'forbidden_host', message: refusal } }, hasBody(req));
    return;
  }
  // The Host rule let this Host through, so it names this server; the URL's origin is a placeholder.
  const origin = `http://${req.headers.host}`;
  const outcome = await dispatch(request, {
    remoteAddress: req.socket.remoteAddress ?? '',
    signal: controller.signal,
    origin,
  });
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
      // A body the service never read (refused before it, or too large) is not drained: the connection closes.
      if (!req.readableEnded && hasBody(req)) out.connection = 'close';
      res.writeHead(outcome.response.status, out);
      res.end(payload);
    }
  }
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** The fetch Request for `req`, or undefined when it cannot be one (a bad target, an unsupported method). */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request | undefined {
  const target = pathOf(req.url ?? '');
  if (target === undefined) return undefined;
  const method = req.method ?? 'GET';
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const withBody = method !== 'GET' && method !== 'HEAD' && hasBody(req);
    if (withBody && req.headers['content-length'] !== undefined)
      headers.set('content-length', req.headers['content-length']);
    return new Request(`${ORIGIN}${target}`, {
      method,
      headers,
      signal,
      ...(withBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    return undefined;
  }
}

/** The path and query of a request target: origin-form as is, absolute-form reduced to it; anything else undefined. */
function pathOf(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

function writeJson(res: ServerResponse, status: number, body: unknown, close: boolean): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(payload);
}

function badRequestOnSocket(socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const payload = JSON.stringify({
    error: { code: 'validation_error', message: 'The request is not valid HTTP/1.1.', field: '(request)' },
  });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
  );
}
