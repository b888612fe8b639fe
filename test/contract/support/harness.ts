/**
 * Drives the sandbox with plain fetch over either transport: in-process through msw, or over a
 * real HTTP port from listen(0). Each test opens its own sandbox; everything is closed after it.
 */
import { setupServer } from 'msw/node';
import { afterEach } from 'vitest';
import {
  createSandbox,
  DEFAULT_MSW_BASE_URL,
  type IssueKeyOptions,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/testing/index.js';

export const TRANSPORTS = ['msw', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: a contract test reads deep fields of any JSON answer it expects
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  /** The bearer key; null sends no Authorization header. Default: the harness key. */
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Harness {
  transport: Transport;
  sandbox: Sandbox;
  key: string;
  /** The base address clients use (without /partner/v1). */
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Enroll a store with sensible defaults; `overrides` replace top-level fields. */
  enroll(id: string, overrides?: Record<string, unknown>, key?: string): Promise<Reply>;
}

/**
 * One plain-fetch request, the way a client in any language would send it: `body` as JSON (or
 * `rawBody` as-is) with its content type, and the answer read as text and, when it is, JSON.
 */
export async function send(method: string, url: string, o: Omit<CallOptions, 'key'> = {}): Promise<Reply> {
  const payload = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const response = await fetch(url, {
    method,
    headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
    ...(payload === undefined ? {} : { body: payload }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: jsonOrUndefined(text) };
}

/** A body that is not JSON (an HTML page, nothing) is kept as text only. */
function jsonOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const cleanups: Array<() => unknown> = [];
let mswActive = false;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function openSandbox(
  transport: Transport,
  options: SandboxOptions = {},
  keyOptions: IssueKeyOptions = {},
): Promise<Harness> {
  const sandbox = createSandbox(options);
  let baseUrl: string;
  if (transport === 'msw') {
    // Two msw servers would both intercept the same base URL: one sandbox per test.
    if (mswActive) throw new Error('openSandbox: only one msw sandbox per test');
    mswActive = true;
    cleanups.push(() => void (mswActive = false));
    const server = setupServer(...sandbox.mswHandlers());
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());
    baseUrl = DEFAULT_MSW_BASE_URL;
  } else {
    const listening = await sandbox.listen(0);
    cleanups.push(() => listening.close());
    baseUrl = listening.url;
  }
  const key = sandbox.issueKey(keyOptions);
  const call = (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const bearer = o.key === undefined ? key : o.key;
    return send(method, `${baseUrl}/partner/v1${path}`, {
      ...o,
      headers: { ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }), ...o.headers },
    });
  };
  return {
    transport,
    sandbox,
    key,
    baseUrl,
    call,
    enroll: (id, overrides = {}, enrollKey) =>
      call('POST', '/locations', {
        body: { partner_location_id: id, name: `Store ${id}`, address: address(), ...overrides },
        ...(enrollKey === undefined ? {} : { key: enrollKey }),
      }),
  };
}

/** A US address in California; postal codes ending in 0 have no hours in the sandbox. */
export function address(overrides: Record<string, string> = {}) {
  return {
    line1: '500 Howard St',
    city: 'San Francisco',
    state: 'CA',
    postal_code: '94105',
    country: 'US',
    ...overrides,
  };
}

/** Every item of a list, page by page; asserts each page's size stays within `limit`. */
export async function pageThrough(h: Harness, path: string, limit = 200): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  const join = path.includes('?') ? '&' : '?';
  do {
    const reply: Reply = await h.call('GET', `${path}${join}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`);
    if (reply.body.items.length > limit) throw new Error('page larger than limit');
    items.push(...reply.body.items);
    cursor = reply.body.next_cursor;
  } while (cursor);
  return items;
}
