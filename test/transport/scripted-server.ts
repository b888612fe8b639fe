/**
 * A server we script answer by answer, on a real loopback port: status, headers, body (or an
 * endless one), delays. For the wait rules and hostile answers, which the sandbox does not send.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Write chunks of this size forever (until the client goes away). */
  endless?: number;
  /** Wait this long before answering. */
  delayMs?: number;
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
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: Scripted[] = [];
  const received: Received[] = [];
  const state = { fallback: { status: 200, body: '{"ok":true}' } as Scripted };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() });
      const answer = queue.shift() ?? state.fallback;
      const send = () => {
        if (res.destroyed) return;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A clock that stands still except for its sleeps, which move it on and resolve at once; `random` fixed. */
export function steppingClock(random = 1) {
  const sleeps: number[] = [];
  let now = Date.UTC(2026, 10, 23, 12);
  return {
    sleeps,
    now: () => now,
    random: () => random * 0.999_999,
    advance: (ms: number) => void (now += ms),
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}
