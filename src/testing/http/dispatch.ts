import type { Dialect } from '../access/dialects.js';
import { malformedResponse, statusFaultResponse } from '../faults/fault-response.js';
import type { ActiveFault, Faults } from '../faults/faults.js';
import { sleep, type Outcome } from './outcome.js';
import { loggedHeaders, type RequestLog } from './request-log.js';
import type { Route } from './router.js';
import { serve, supportRef } from './service.js';
import type { World } from '../model/world.js';

/** The paged reads, which the slow-pages dialect slows down. */
const LIST_PATH =
  /^\/partner\/v1\/(?:reservations|billing\/monthly|locations\/[^/]+\/(?:reservations|content|creators))\/?$/;

export interface DispatchContext {
  remoteAddress: string;
  /** Aborts when the client gives up. */
  signal: AbortSignal;
  /**
   * The origin the caller reached, when the request's URL does not carry it: over a port, from
   * the `Host` the Host rule accepted. Otherwise the request URL's own origin.
   */
  origin?: string;
}

export interface Dispatcher {
  (request: Request, context: DispatchContext): Promise<Outcome>;
}

/**
 * The one handler behind every transport: gives the request an id, applies a matching fault
 * (before the service, or after it took effect), runs the service, and logs what the caller got.
 */
export function createDispatcher(deps: {
  world: () => World;
  routes: readonly Route[];
  faults: Faults;
  log: RequestLog;
  clock: () => number;
  dialect: Dialect;
}): Dispatcher {
  let counter = 0;
  let unfaulted = 0;
  return async (request, context) => {
    const world = deps.world();
    const requestId = `req_${(++counter).toString(36).padStart(6, '0')}${supportRef(`${world.options.seed}/${counter}`).slice(0, 6).toLowerCase()}`;
    const method = request.method.toUpperCase();
    const path = new URL(request.url).pathname;
    const at = deps.clock();
    const headers = loggedHeaders(request.headers);
    const fault = deps.faults.take(method, path);
    let serviceStatus: number | undefined;

    let outcome =
      fault && fault.when === 'before' ? await faultOutcome(fault, undefined, requestId, context.signal) : undefined;
    let dialectFault: string | undefined;
    if (!outcome && !fault) {
      const every = deps.dialect.unavailableEvery;
      if (every > 0 && ++unfaulted % every === 0) {
        dialectFault = 'dialect unavailable';
        outcome = {
          type: 'response',
          response: statusFaultResponse({ status: 503, headers: { 'Retry-After': '1' } }, supportRef(requestId)),
        };
        outcome.response.headers.set('x-request-id', requestId);
      } else if (deps.dialect.pageDelayMs > 0 && method === 'GET' && LIST_PATH.test(path)) {
        dialectFault = 'dialect slow page';
        if (!(await sleep(deps.dialect.pageDelayMs, context.signal))) outcome = { type: 'aborted' };
      }
    }
    if (!outcome) {
      const response = await serve(world, deps.routes, request, requestId, context.remoteAddress);
      serviceStatus = response.status;
      outcome = (fault?.when === 'after'
        ? await faultOutcome(fault, response, requestId, context.signal)
        : undefined) ?? { type: 'response', response };
    }
    // As a real service does (RFC 9110): the time of the answer, on the sandbox's simulated clock.
    if (outcome.type === 'response' && !outcome.response.headers.has('date'))
      outcome.response.headers.set('date', new Date(world.clock.nowMs()).toUTCString());
    deps.log.add({
      method,
      path,
      status: outcome.type === 'response' ? outcome.response.status : 0,
      requestId,
      at,
      ...(serviceStatus === undefined ? {} : { serviceStatus }),
      ...(fault ? { fault: faultName(fault) } : dialectFault ? { fault: dialectFault } : {}),
      headers,
    });
    return outcome;
  };
}

/**
 * The fault's outcome; undefined for a delay alone, which only slows the normal answer.
 * `original` is the service's answer when the fault applies after the request took effect.
 */
async function faultOutcome(
  fault: ActiveFault,
  original: Response | undefined,
  requestId: string,
  signal: AbortSignal,
): Promise<Outcome | undefined> {
  if (fault.delayMs !== undefined && fault.delayMs > 0 && !(await sleep(fault.delayMs, signal)))
    return { type: 'aborted' };
  if (fault.reset) return { type: 'reset' };
  if (fault.hang) return { type: 'hang' };
  let response: Response | undefined;
  if (fault.malformed) response = await malformedResponse(original);
  else if (fault.status !== undefined)
    response = statusFaultResponse({ ...fault, status: fault.status }, supportRef(requestId));
  else return original ? { type: 'response', response: original } : undefined;
  response.headers.set('x-request-id', requestId);
  return { type: 'response', response };
}

function faultName(fault: ActiveFault): string {
  if (fault.reset) return 'reset';
  if (fault.hang) return 'hang';
  if (fault.malformed) return 'malformed';
  if (fault.status !== undefined) return `status ${fault.status}`;
  return 'delay';
}
