/**
 * A typed client for the control API (`/_sandbox/`), for tests that drive a sandbox in another
 * process (`crp-sandbox`) the way they would drive one in their own. Plain fetch; no SDK code.
 */
import type { IssueKeyOptions } from '../access/keys.js';
import type { PopulateOptions, PopulateResult } from '../domain/populate.js';
import type { FaultShape, FaultSpec, RandomFaultOptions } from '../faults/faults.js';
import type { SandboxChange } from '../model/change-log.js';
import type { LoggedRequest } from '../http/request-log.js';
import { durationMs, type Duration } from '../simulation/clock.js';

/** Where the sandbox is, and how to reach its control API. */
export interface SandboxControlOptions {
  /** The sandbox's base address (what crp-sandbox prints as PARTNER_API_BASE_URL), e.g. 'http://127.0.0.1:4010'. */
  baseUrl: string;
  /** The sandbox's admin token, when it was started with one (`--admin-token`). */
  adminToken?: string;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** A fault as the control API takes it: `path` exact, or `pathPattern` a glob; never a RegExp. */
export type RemoteFaultSpec = Omit<FaultSpec, 'path'> & { path?: string };
/** Random faults as the control API takes them: `path` exact, or `pathPattern` a glob; never a RegExp. */
export type RemoteRandomFaultOptions = Omit<RandomFaultOptions, 'path'> & { path?: string };

/** A page of the change log. */
export interface ChangesPage {
  /** The changes, in seq order. */
  items: SandboxChange[];
  /** The last item's seq when more changes follow; null when everything so far was read. */
  nextAfter: number | null;
}

/** A page of the service's request log. */
export interface RequestsPage {
  /** The requests, in seq order, each with its headers (keys redacted). */
  items: LoggedRequest[];
  /** The last item's seq when more requests follow; null when everything so far was read. */
  nextAfter: number | null;
}

/** A control call the sandbox refused: `status` and `code` as the service's errors have them. */
export class SandboxControlError extends Error {
  /** Always 'SandboxControlError'. */
  override readonly name = 'SandboxControlError';
  /** The HTTP status of the refusal. */
  readonly status: number;
  /** The error code (`unauthorized`, `validation_error`, `not_found`, …). */
  readonly code: string;
  /** The refused input, for `validation_error`. */
  readonly field: string | undefined;

  /** Made by `SandboxControl` from the sandbox's error body. */
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * Drive a sandbox over HTTP: its clock, faults, keys, data and change log.
 *
 * @example
 * const control = new SandboxControl({ baseUrl: 'http://127.0.0.1:4010' });
 * const key = await control.issueKey();
 * await control.advance({ days: 7 });
 * const { items } = await control.changes(key);
 */
export class SandboxControl {
  readonly #base: string;
  readonly #adminToken: string | undefined;
  readonly #fetch: typeof fetch;

  /** A client for the sandbox at `options.baseUrl`. */
  constructor(options: SandboxControlOptions) {
    this.#base = `${options.baseUrl.replace(/\/+$/, '')}/_sandbox`;
    this.#adminToken = options.adminToken;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * The sandbox's simulated time.
   * @example const now = await control.now();
   */
  async now(): Promise<Date> {
    return new Date((await this.#call<{ now: string }>('GET', '/clock')).now);
  }

  /**
   * Move simulated time forward by a duration (`days`, `hours`, `minutes`, `ms`, which add up, or
   * `by_ms` alone, as over HTTP), or to an instant; everything due on the way happens. Returns the
   * new time. A duration mixing `by_ms` with the parts throws a `TypeError` before anything is sent.
   * @example
   * await control.advance({ days: 1, hours: 2 });
   * await control.advance({ by_ms: 60_000 });
   * await control.advance({ to: '2026-12-24T18:00:00Z' });
   */
  async advance(by: Duration | { to: Date | string }): Promise<Date> {
    const body = 'to' in by ? { to: new Date(by.to).toISOString() } : { by_ms: durationMs(by) };
    return new Date((await this.#call<{ now: string }>('POST', '/clock/advance', { body })).now);
  }

  /** Faults on demand, as `sandbox.faults`. */
  readonly faults = {
    /**
     * Queue a fault for the next matching request(s); returns how many are queued. `path` is
     * exact, `pathPattern` a glob (`*` is any run of characters); a RegExp throws a `TypeError`.
     * @example
     * await control.faults.next({ status: 503, times: 2, path: '/partner/v1/reservations' });
     * await control.faults.next({ status: 500, when: 'after', pathPattern: '/partner/v1/locations/*' });
     */
    next: async (spec: RemoteFaultSpec): Promise<number> =>
      (await this.#call<{ pending: number }>('POST', '/faults', { body: withPath(spec) })).pending,
    /**
     * Random faults on every matching request from now on.
     * @example await control.faults.random({ rate: 0.1, kinds: ['unavailable', 'reset'], seed: 7 });
     */
    random: async (options: RemoteRandomFaultOptions): Promise<void> => {
      await this.#call('POST', '/faults/random', { body: withPath(options) });
    },
    /**
     * Remove every queued and random fault.
     * @example await control.faults.clear();
     */
    clear: async (): Promise<void> => {
      await this.#call('DELETE', '/faults');
    },
    /**
     * Queued faults still to apply.
     * @example expect(await control.faults.pending()).toBe(0);
     */
    pending: async (): Promise<number> => (await this.#call<{ pending: number }>('GET', '/faults')).pending,
  };

  /**
   * A new crp_test_ key (its own account unless `account` names a key of an existing one).
   * @example const key = await control.issueKey({ rateLimit: { limit: 5, windowMs: 1000 } });
   */
  async issueKey(options: IssueKeyOptions = {}): Promise<string> {
    return (await this.#call<{ key: string }>('POST', '/keys', { body: options })).key;
  }

  /**
   * Fill the key's account with stores and bookings in one call.
   * @example await control.populate(key, { locations: 100, reservationsPerLocation: 50 });
   */
  async populate(key: string, options: PopulateOptions): Promise<PopulateResult> {
    return this.#call<PopulateResult>('POST', '/populate', { body: options, key });
  }

  /**
   * One page of the key's account's change log, after `after` (a seq).
   * @example
   * let after = 0;
   * const page = await control.changes(key, { after, limit: 500 });
   */
  async changes(key: string, options: { after?: number; limit?: number } = {}): Promise<ChangesPage> {
    return this.#page<SandboxChange>('/changes', options, key);
  }

  /**
   * One page of the requests the service received (every key's, and those without one), after
   * `after` (a seq): method, path, status, request id, fault, and headers with keys redacted.
   * @example
   * const { items } = await control.requests({ after: 0, limit: 100 });
   * const traceparents = items.map((r) => r.headers.traceparent);
   */
  async requests(options: { after?: number; limit?: number } = {}): Promise<RequestsPage> {
    return this.#page<LoggedRequest>('/requests', options);
  }

  async #page<T>(
    path: string,
    options: { after?: number; limit?: number },
    key?: string,
  ): Promise<{ items: T[]; nextAfter: number | null }> {
    const query = new URLSearchParams();
    if (options.after !== undefined) query.set('after', String(options.after));
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    const page = await this.#call<{ items: T[]; next_after: number | null }>(
      'GET',
      `${path}${query.size ? `?${query}` : ''}`,
      key === undefined ? {} : { key },
    );
    return { items: page.items, nextAfter: page.next_after };
  }

  /**
   * Forget everything (keys included) and go back to the start time.
   * @example await control.reset();
   */
  async reset(): Promise<void> {
    await this.#call('POST', '/reset');
  }

  async #call<T>(method: string, path: string, options: { body?: unknown; key?: string } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.#adminToken !== undefined) headers['x-sandbox-admin-token'] = this.#adminToken;
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    // The sandbox takes a control POST only as JSON, body or not (no web form can send that type).
    if (options.body !== undefined || method === 'POST') headers['content-type'] = 'application/json';
    const response = await this.#fetch(`${this.#base}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const error = (body as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
      throw new SandboxControlError(
        response.status,
        error?.code ?? 'unknown',
        `${method} /_sandbox${path.split('?')[0]} failed with ${response.status}: ${error?.message ?? (text.slice(0, 200) || 'no body')}`,
        error?.field,
      );
    }
    return body as T;
  }
}

/** The sandbox takes no RegExp from outside (one could block it for seconds): a pattern travels as a glob, `pathPattern`. */
function withPath<T extends { path?: unknown; kinds?: ReadonlyArray<string | FaultShape> }>(spec: T): T {
  if (spec.path instanceof RegExp) {
    throw new TypeError(
      `SandboxControl: path ${String(spec.path)} is a RegExp, which the control API does not take; give ` +
        `pathPattern, a glob where * is any run of characters (e.g. '/partner/v1/locations/*'), or an exact ` +
        `path. Nothing was sent.`,
    );
  }
  return spec;
}
