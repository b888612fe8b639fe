import type { Duration } from './simulation/clock.js';
import { createControl, isControlPath } from './http/control/control.js';
import { createDispatcher } from './http/dispatch.js';
import { DOCUMENT_PATH, documentResponse } from './http/openapi-document.js';
import { Faults } from './faults/faults.js';
import { createInspector, type Inspector } from './inspect.js';
import type { IssueKeyOptions } from './access/keys.js';
import { listen, type ListeningSandbox } from './transports/node-server.js';
import { rateLimitOf, resolveOptions, type SandboxOptions } from './options.js';
import { untilAborted, type Outcome } from './http/outcome.js';
import { populate, type PopulateOptions, type PopulateResult } from './domain/populate.js';
import { RequestLog, type LoggedRequest, type RequestFilter } from './http/request-log.js';
import { routes } from './http/routes/index.js';
import { World } from './model/world.js';
import type { Dispatcher } from './http/dispatch.js';

/** Simulated time: bookings, visits and videos happen as it passes. */
export interface SandboxClock {
  /** The current simulated time. */
  now(): Date;
  /** Move simulated time forward, running everything due on the way; returns the new time. */
  advance(duration: Duration): Date;
}

/** Options of `sandbox.handle()`. */
export interface HandleOptions {
  /** The caller's IP address for the key's allow-list. @default the sandbox's `callerAddress` */
  remoteAddress?: string;
}

/** The sandbox without msw: everything but `mswHandlers` (what the crp-sandbox command uses). */
export interface Emulator {
  /** The simulated clock: `now()`, and `advance()`, which runs every booking step due on the way. */
  readonly clock: SandboxClock;
  /** Faults on demand: `next()`, `random()`, `clear()`. */
  readonly faults: Faults;
  /** Read the state behind the API, by key. */
  readonly inspect: Inspector;
  /** The most recent handled requests, oldest first (a copy). */
  readonly requests: readonly LoggedRequest[];
  /** How many logged requests match (e.g. `{ status: 429 }`, `{ method: 'POST', path: '/partner/v1/locations', effective: true }`). */
  requestCount(filter?: RequestFilter): number;
  /** A new `crp_test_` key; its own new account unless `account` names a key of an existing one. Throws on a bad allow-list. */
  issueKey(options?: IssueKeyOptions): string;
  /**
   * The fetch-standard handler behind every transport. A reset fault rejects with a TypeError
   * (as fetch does); a hang fault settles only when `request.signal` aborts.
   */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /**
   * Serve over real HTTP on 127.0.0.1 (or `host`); port 0 picks a free one. A host other than
   * loopback needs the `adminToken` option (rejects otherwise). Requests whose `Host` is not this
   * server's address (or one of `allowedHosts`) get 403 `forbidden_host`.
   */
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  /** Quickly fill the key's account with stores and bookings (no HTTP). */
  populate(key: string, options: PopulateOptions): PopulateResult;
  /** Forget everything (keys, accounts, faults, the request log) and go back to the start time. */
  reset(): void;
}

/** An in-process request (from `callerAddress`) through the shared dispatcher. */
export type InProcessDispatch = (request: Request) => Promise<Outcome>;

/** What the crp-sandbox command needs beyond the public sandbox. */
export interface EmulatorHooks {
  /** Runs after every reset, on the fresh state (crp-sandbox issues its start-up key again). */
  afterReset?: () => void;
}

/**
 * The emulator, its dispatcher for in-process transports other than `handle` (msw), and
 * `reissueKey(key)`: make a key issued before a reset valid again, for a new empty account.
 */
export function createEmulator(
  options: SandboxOptions = {},
  hooks: EmulatorHooks = {},
): { emulator: Emulator; inProcess: InProcessDispatch; reissueKey(key: string): void } {
  const resolved = resolveOptions(options);
  let world = new World(resolved);
  const faults = new Faults(resolved.seed);
  const log = new RequestLog(resolved.requestLogSize);
  const rateClock = resolved.rateLimitClock === 'simulated' ? () => world.clock.nowMs() : resolved.rateLimitClock;
  const service = createDispatcher({
    world: () => world,
    routes,
    faults,
    log,
    clock: rateClock,
    dialect: resolved.dialect,
  });

  const accountOf = (key: string) => {
    const found = world.keys.find(key);
    if (!found) throw new Error('This key was not issued by this sandbox');
    return found.account;
  };

  const emulator: Emulator = {
    clock: {
      now: () => world.clock.now(),
      advance: (duration) => world.clock.advance(duration),
    },
    faults,
    inspect: createInspector(() => world),
    get requests() {
      return log.all();
    },
    requestCount: (filter) => log.count(filter),
    issueKey: (opts = {}) => {
      const account = opts.account === undefined ? undefined : accountOf(opts.account);
      // Validate before creating an account, so a refused key leaves nothing behind.
      return world.keys.issue(
        account ?? (() => world.newAccount()),
        opts.allowIps,
        rateLimitOf(opts.rateLimit, resolved.rateLimit, 'issueKey'),
        resolved.dialect,
        rateClock,
      );
    },
    handle: async (request, opts = {}) => {
      const outcome = await dispatch(request, {
        remoteAddress: opts.remoteAddress ?? resolved.callerAddress,
        signal: request.signal,
      });
      switch (outcome.type) {
        case 'response':
          return outcome.response;
        case 'reset':
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('other side closed (sandbox fault: reset)'), { code: 'UND_ERR_SOCKET' }),
          });
        case 'hang':
          await untilAborted(request.signal);
          throw abortReason(request.signal);
        case 'aborted':
          throw abortReason(request.signal);
      }
    },
    listen: async (port, host = '127.0.0.1') => {
      if (!isLoopback(host) && resolved.adminToken === undefined) {
        throw new Error(
          `sandbox.listen: serving on ${host} (not loopback) needs an admin token: ` +
            `createSandbox({ adminToken }) (crp-sandbox --admin-token), so that only you can drive its control API.`,
        );
      }
      return listen(dispatch, port, host, resolved.allowedHosts);
    },
    populate: (key, opts) => populate(world, accountOf(key), opts),
    reset: () => {
      world = new World(resolved);
      faults.clear();
      log.clear();
      hooks.afterReset?.();
    },
  };
  const control = createControl({
    world: () => world,
    faults,
    issueKey: emulator.issueKey,
    populate: emulator.populate,
    reset: emulator.reset,
    log,
    adminToken: resolved.adminToken,
  });
  // The control API shares the port and every transport, but never the service's faults, limits or log.
  const dispatch: Dispatcher = async (request, context) => {
    const path = new URL(request.url).pathname;
    if (isControlPath(path)) return { type: 'response', response: await control(request) };
    if (path === DOCUMENT_PATH)
      return { type: 'response', response: documentResponse(request, context.origin ?? new URL(request.url).origin) };
    return service(request, context);
  };
  const inProcess: InProcessDispatch = (request) =>
    dispatch(request, { remoteAddress: resolved.callerAddress, signal: request.signal });
  const reissueKey = (key: string): void => {
    world.keys.issue(() => world.newAccount(), undefined, resolved.rateLimit, resolved.dialect, rateClock, key);
  };
  return { emulator, inProcess, reissueKey };
}

/** Loopback addresses and names, reachable only from this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
