/** Child processes: workers that talk over IPC, the sandbox host, and a private redis-server. */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { extname, join } from 'node:path';
import { BENCH_DIR } from './paths.js';
import { respond } from './serve-parent.mjs';

/** The worker's side: bench/lib/serve-parent.mjs. */
export { serveParent } from './serve-parent.mjs';

export interface Worker {
  child: ChildProcess;
  /** Send a request and wait for the reply with the same id. */
  call<T = unknown>(message: Record<string, unknown>): Promise<T>;
  /** The next message of this type that the worker sends unprompted. */
  next<T = unknown>(type: string): Promise<T>;
  /** Every message of this type, whole, as it comes (a stream: none is queued for `next`). */
  on(type: string, listener: (message: Record<string, unknown>) => void): void;
  /** Answer the worker's requests `{ ask, type, ... }` of this type with `{ answer, value | error }`. */
  answer(type: string, handler: (message: Record<string, unknown>) => unknown): void;
  stop(): Promise<void>;
}

/**
 * Fork bench/workers/<name>.ts under tsx (IPC on); a name with its extension (`fleet-sync.mjs`) is
 * plain JavaScript, run by plain node. Extra node flags in `execArgv`.
 */
export function startWorker(name: string, args: string[] = [], execArgv: string[] = []): Worker {
  const plain = extname(name) !== '';
  const child = fork(join(BENCH_DIR, 'workers', plain ? name : `${name}.ts`), args, {
    execArgv: plain ? execArgv : ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env },
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Array<(v: unknown) => void>>();
  const early = new Map<string, unknown[]>();
  const streams = new Map<string, (message: Record<string, unknown>) => void>();
  let exited: Error | undefined;
  child.on('message', (raw) => {
    const message = raw as { id?: number; type?: string; error?: string; value?: unknown };
    if (message.id !== undefined) {
      const entry = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) entry?.reject(new Error(`${name}: ${message.error}`));
      else entry?.resolve(message.value);
    } else if (message.type !== undefined && streams.has(message.type)) {
      streams.get(message.type)?.(raw as Record<string, unknown>);
    } else if (message.type !== undefined) {
      const queue = listeners.get(message.type);
      const first = queue?.shift();
      if (first) first(message.value);
      else early.set(message.type, [...(early.get(message.type) ?? []), message.value]);
    }
  });
  child.on('exit', (code, signal) => {
    exited = new Error(`worker ${name} exited (code ${code}, signal ${signal})`);
    for (const entry of waiting.values()) entry.reject(exited);
    waiting.clear();
  });
  return {
    child,
    call<T>(message: Record<string, unknown>): Promise<T> {
      if (exited) return Promise.reject(exited);
      const id = ++nextId;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ ...message, id });
      });
    },
    next<T>(type: string): Promise<T> {
      const pending = early.get(type);
      if (pending && pending.length > 0) return Promise.resolve(pending.shift() as T);
      if (exited) return Promise.reject(exited);
      return new Promise<T>((resolve, reject) => {
        listeners.set(type, [...(listeners.get(type) ?? []), resolve as (v: unknown) => void]);
        child.once('exit', () => reject(exited));
      });
    },
    on(type, listener) {
      streams.set(type, listener);
    },
    answer(type, handler) {
      const send = (message: Record<string, unknown>) => child.connected && child.send(message);
      streams.set(type, (message) => respond(send, 'answer', message.ask, () => handler(message)));
    },
    stop(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  port: number;
  stop(): Promise<void>;
}

/** A throw-away redis-server on a free port, no persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.once('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
