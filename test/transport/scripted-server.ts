/**
 * A server we script answer by answer, on a real loopback port: status, headers, body (or an
 * endless one), delays. For the wait rules and hostile answers, which the sandbox does not send.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PartnerClient, type ClientOptions } from '../../src/index.js';
import { fakeClock } from '../helpers/fake-clock.js';

export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Write chunks of this size forever (until the client goes away). */
  endless?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Close the connection without an answer, after the whole request has arrived. */
  drop?: boolean;
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface ScriptedServer {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; afterwards every request gets `fallback`. */
  script(...answers: Scripted[]): void;
  fallback: Scripted;
  /** Forget what was received and the answers not yet given; the fallback answers again. */
  reset(): void;
  close(): Promise<void>;
}

const FALLBACK: Scripted = { status: 200, body: '{"ok":true}' };

export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: Scripted[] = [];
  const received: Received[] = [];
  const state = { fallback: FALLBACK };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
      const answer = queue.shift() ?? state.fallback;
      const send = () => {
        if (res.destroyed) return;
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        const length = answer.endless ? {} : { 'content-length': String(Buffer.byteLength(answer.body ?? '')) };
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...length, ...answer.headers });
        if (answer.endless) {
          const chunk = 'x'.repeat(answer.endless);
          const pump = () => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', pump);
          };
          pump();
          return;
        }
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (...answers) => void queue.push(...answers),
    get fallback() {
      return state.fallback;
    },
    set fallback(answer: Scripted) {
      state.fallback = answer;
    },
    reset: () => {
      queue.length = 0;
      received.length = 0;
      state.fallback = FALLBACK;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ScriptedSuite {
  /** The file's server (started before its first test). */
  server: ScriptedServer;
  /** A client of `key` for the server; `defaults`, then `options`, override. Closed after the test. */
  client(options?: ClientOptions): PartnerClient;
  /** Clients made otherwise, to be closed after the test too. */
  clients: PartnerClient[];
}

/**
 * One scripted server for a whole test file: started before the first test, closed after the last;
 * after each test its clients are closed, and what it received, the answers it did not give and
 * its fallback answer are reset (a failing test leaves nothing to the next).
 */
export function useScriptedServer(key: string, defaults: ClientOptions = {}): ScriptedSuite {
  let started: ScriptedServer | undefined;
  const current = (): ScriptedServer => {
    if (!started) throw new Error('useScriptedServer: the server starts in beforeAll; use it inside a test');
    return started;
  };
  const clients: PartnerClient[] = [];
  beforeAll(async () => {
    started = await startScriptedServer();
  });
  afterAll(() => started?.close());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    current().reset();
  });
  const server: ScriptedServer = {
    get url() {
      return current().url;
    },
    get received() {
      return current().received;
    },
    script: (...answers) => current().script(...answers),
    get fallback() {
      return current().fallback;
    },
    set fallback(answer: Scripted) {
      current().fallback = answer;
    },
    reset: () => current().reset(),
    close: () => current().close(),
  };
  return {
    server,
    clients,
    client(options: ClientOptions = {}) {
      const c = new PartnerClient({ apiKey: key, baseUrl: current().url, ...defaults, ...options });
      clients.push(c);
      return c;
    },
  };
}

/** The fake clock at a fixed date, `random` fixed. */
export const steppingClock = (random = 1) => fakeClock({ start: Date.UTC(2026, 10, 23, 12), random });
