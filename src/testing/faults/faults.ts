import { createRng, type Rng } from '../model/random.js';
import { PathGlob } from './path-glob.js';

/** How a faulty answer looks. Combine `delayMs` with any other; alone it only slows the request. */
export interface FaultShape {
  /** Answer with this status. With `body: 'json'` the body is the contract's error for it (500 → internal_error with a ref). */
  status?: number;
  /** The body of a status fault: the contract's JSON error, a proxy-style HTML page, or nothing. @default 'json' */
  body?: 'json' | 'html' | 'empty';
  /** Extra response headers (e.g. `{ 'Retry-After': '2' }`). */
  headers?: Record<string, string>;
  /** Wait this many real milliseconds first (stops early if the client aborts). */
  delayMs?: number;
  /** Never answer: until the client aborts (in-process) or closes the connection (HTTP). */
  hang?: true;
  /** Drop the connection: the socket is destroyed over HTTP; in-process fetch fails with a TypeError. */
  reset?: true;
  /** Answer 200 with a truncated JSON body. */
  malformed?: true;
}

/** A fault for the next matching request(s). */
export interface FaultSpec extends FaultShape {
  /** How many matching requests it applies to. @default 1 */
  times?: number;
  /** Only requests to this exact path (e.g. '/partner/v1/reservations') or matching this RegExp (in-process only). */
  path?: string | RegExp;
  /**
   * Or: only paths matching this glob, where `*` is any run of characters, `/` included
   * (e.g. '/partner/v1/locations/*'). What the control API takes: never a RegExp from outside.
   */
  pathPattern?: string;
  /** Only this HTTP method. */
  method?: string;
  /**
   * 'before' answers instead of the service; 'after' lets the request take effect first and then
   * replaces its answer (an enrollment that happened but whose response was lost).
   * @default 'before'
   */
  when?: 'before' | 'after';
}

/** Shorthand names for `faults.random({ kinds })`. */
export type FaultKind =
  | 'internal_error'
  | 'bad_gateway'
  | 'unavailable'
  | 'gateway_timeout'
  | 'rate_limited'
  | 'html'
  | 'empty'
  | 'reset'
  | 'hang'
  | 'malformed'
  | 'delay';

/** Every shorthand name `faults.random({ kinds })` takes. */
export const FAULT_KINDS: readonly FaultKind[] = [
  'internal_error',
  'bad_gateway',
  'unavailable',
  'gateway_timeout',
  'rate_limited',
  'html',
  'empty',
  'reset',
  'hang',
  'malformed',
  'delay',
];

const KINDS: Record<FaultKind, FaultShape> = {
  internal_error: { status: 500 },
  bad_gateway: { status: 502, body: 'html' },
  unavailable: { status: 503 },
  gateway_timeout: { status: 504, body: 'html' },
  rate_limited: { status: 429, headers: { 'Retry-After': '1' } },
  html: { status: 502, body: 'html' },
  empty: { status: 503, body: 'empty' },
  reset: { reset: true },
  hang: { hang: true },
  malformed: { malformed: true },
  delay: { delayMs: 25 },
};

/** Chaos: each matching request has `rate` chance of one of `kinds`, drawn from its own seeded stream. */
export interface RandomFaultOptions {
  /** Probability (0..1) that a request gets a fault. */
  rate: number;
  /** The faults to draw from. @default ['internal_error', 'unavailable', 'reset'] */
  kinds?: ReadonlyArray<FaultKind | FaultShape>;
  /** Seed of the draws, so a run faults the same requests again. @default the sandbox seed */
  seed?: number;
  /** Fault before the request reaches the service, or after it took effect (its answer lost). @default 'before' */
  when?: 'before' | 'after';
  /** Only requests to this exact path or matching this RegExp (in-process only). */
  path?: string | RegExp;
  /** Or: only paths matching this glob (`*` is any run of characters, `/` included). */
  pathPattern?: string;
  /** Only this HTTP method. */
  method?: string;
}

export interface ActiveFault extends FaultShape {
  when: 'before' | 'after';
}

/** Which requests a fault applies to, compiled once. */
interface Filter {
  method: string | undefined;
  path: string | RegExp | PathGlob | undefined;
}

interface Queued {
  spec: FaultSpec;
  filter: Filter;
  remaining: number;
}

/** Faults on demand (`sandbox.faults`). Evaluated before authentication, so they apply to any request. */
export class Faults {
  #queue: Queued[] = [];
  #random: { options: RandomFaultOptions; filter: Filter; kinds: FaultShape[]; rng: Rng } | undefined;

  constructor(private readonly seed: number) {}

  /** Apply a fault to the next matching request (or the next `times` of them). */
  next(spec: FaultSpec): void {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError('faults.next: times must be a whole number of 1 or more');
    this.#queue.push({ spec, filter: filterOf(spec, 'faults.next'), remaining: times });
  }

  /** Random faults on every matching request from now on, until `clear()`. */
  random(options: RandomFaultOptions): void {
    if (!(options.rate >= 0 && options.rate <= 1)) throw new RangeError('faults.random: rate must be between 0 and 1');
    const kinds = (options.kinds ?? ['internal_error', 'unavailable', 'reset']).map((k) =>
      typeof k === 'string' ? KINDS[k] : k,
    );
    if (kinds.length === 0) throw new RangeError('faults.random: kinds must not be empty');
    this.#random = {
      options,
      filter: filterOf(options, 'faults.random'),
      kinds,
      rng: createRng(options.seed ?? this.seed),
    };
  }

  /** Remove every queued and random fault. */
  clear(): void {
    this.#queue = [];
    this.#random = undefined;
  }

  /** Queued faults still waiting to apply (counting `times`). */
  get pending(): number {
    return this.#queue.reduce((n, q) => n + q.remaining, 0);
  }

  /** The fault for this request, if any; a queued fault is used up by it. */
  take(method: string, path: string): ActiveFault | undefined {
    const index = this.#queue.findIndex((q) => applies(q.filter, method, path));
    const queued = this.#queue[index];
    if (queued) {
      if (--queued.remaining === 0) this.#queue.splice(index, 1);
      const { pathPattern: _pattern, ...spec } = queued.spec;
      return { ...spec, when: spec.when ?? 'before' };
    }
    const random = this.#random;
    if (random && applies(random.filter, method, path) && random.rng.chance(random.options.rate)) {
      return { ...random.rng.pick(random.kinds), when: random.options.when ?? 'before' };
    }
    return undefined;
  }
}

function filterOf(spec: { path?: string | RegExp; pathPattern?: string; method?: string }, where: string): Filter {
  if (spec.path !== undefined && spec.pathPattern !== undefined)
    throw new RangeError(`${where}: give path or pathPattern, not both`);
  return { method: spec.method, path: spec.pathPattern === undefined ? spec.path : new PathGlob(spec.pathPattern) };
}

function applies(filter: Filter, method: string, path: string): boolean {
  if (filter.method !== undefined && filter.method.toUpperCase() !== method) return false;
  if (filter.path === undefined) return true;
  return typeof filter.path === 'string' ? filter.path === path : filter.path.test(path);
}
