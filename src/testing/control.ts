/**
 * The control API under /_sandbox/: what a test does to the sandbox from outside the process
 * (clock, change log, …). It never reaches the service: no faults, no rate limit, no request log.
 * When an admin token is set, every control call must carry it in `X-Sandbox-Admin-Token`;
 * a crp_test_ key alone never opens it.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { ApiError, validation } from './api-error.js';
import { jsonResponse } from './json-response.js';
import type { Account } from './model.js';
import type { World } from './world.js';

export const CONTROL_PREFIX = '/_sandbox';
export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token';
const DEFAULT_CHANGES_LIMIT = 100;
const MAX_CHANGES_LIMIT = 1000;

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export interface ControlDeps {
  world: () => World;
  adminToken: string | undefined;
}

interface ControlContext {
  world: World;
  query: URLSearchParams;
  request: Request;
}

type ControlHandler = (ctx: ControlContext) => unknown;

export function createControl(deps: ControlDeps): (request: Request) => Promise<Response> {
  const routes: Record<string, ControlHandler> = {
    'GET /clock': ({ world, query }) => {
      noParams(query);
      return { now: world.clock.now().toISOString() };
    },
    'POST /clock/advance': async ({ world, query, request }) => {
      noParams(query);
      const body = await readObject(request);
      const by = body.by_ms;
      const to = body.to;
      const unknown = Object.keys(body).find((k) => k !== 'by_ms' && k !== 'to');
      if (unknown !== undefined) throw validation(unknown, `${JSON.stringify(unknown)} is not a recognised field. Send { "by_ms": <milliseconds> } or { "to": "<ISO 8601 instant>" }.`);
      if ((by === undefined) === (to === undefined)) throw validation('(body)', 'Send exactly one of by_ms (milliseconds to move on) or to (an ISO 8601 instant).');
      let ms: number;
      if (by !== undefined) {
        if (typeof by !== 'number' || !Number.isFinite(by) || by < 0) throw validation('by_ms', 'by_ms must be a number of milliseconds, 0 or more.');
        ms = by;
      } else {
        const target = typeof to === 'string' ? Date.parse(to) : Number.NaN;
        if (Number.isNaN(target)) throw validation('to', 'to must be an ISO 8601 instant such as 2026-12-08T09:00:00Z.');
        ms = target - world.clock.nowMs();
        if (ms < 0) throw validation('to', `to is before the sandbox's current time (${world.clock.now().toISOString()}); simulated time only moves forward.`);
      }
      return { now: world.clock.advance({ ms }).toISOString() };
    },
    'GET /changes': ({ world, query, request }) => {
      const account = accountOf(world, request);
      const after = intParam(query, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = intParam(query, 'limit', DEFAULT_CHANGES_LIMIT, 1, MAX_CHANGES_LIMIT);
      const unknown = [...query.keys()].find((k) => k !== 'after' && k !== 'limit');
      if (unknown !== undefined) throw validation(unknown, `${JSON.stringify(unknown)} is not a recognised query parameter here. Accepted: after, limit.`);
      const items = account.changes.read(after, limit);
      const last = items.at(-1);
      return { items, next_after: last && account.changes.hasAfter(last.seq) ? last.seq : null };
    },
  };

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(CONTROL_PREFIX.length).replace(/\/$/, '') || '/';
    const method = request.method.toUpperCase();
    try {
      checkAdmin(deps.adminToken, request);
      const handler = routes[`${method} ${path}`];
      if (!handler) {
        const allowed = Object.keys(routes).filter((r) => r.endsWith(` ${path}`)).map((r) => r.split(' ')[0] as string);
        if (allowed.length > 0) throw new ApiError('method_not_allowed', `${method} is not supported on ${url.pathname}. Use ${allowed.join(' or ')}.`, undefined, { Allow: allowed.join(', ') });
        throw new ApiError('not_found', `There is no control endpoint at ${url.pathname}. See docs/sandbox.md for the control API.`);
      }
      return jsonResponse(200, await handler({ world: deps.world(), query: url.searchParams, request }));
    } catch (error) {
      if (error instanceof ApiError) return jsonResponse(error.status, error.body(), error.headers);
      throw error;
    }
  };
}

function checkAdmin(expected: string | undefined, request: Request): void {
  if (expected === undefined) return;
  const given = request.headers.get(ADMIN_TOKEN_HEADER);
  if (given === null) {
    throw new ApiError('unauthorized', `This sandbox's control API needs its admin token: send the header X-Sandbox-Admin-Token: <token> (the --admin-token it was started with). A crp_test_ key does not open it.`);
  }
  // Compare digests: equal lengths for timingSafeEqual, and no early exit on the first wrong byte.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  if (!timingSafeEqual(digest(given), digest(expected))) {
    throw new ApiError('unauthorized', 'X-Sandbox-Admin-Token does not match the admin token this sandbox was started with.');
  }
}

function accountOf(world: World, request: Request): Account {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) throw new ApiError('unauthorized', 'Say whose changes to read: send Authorization: Bearer <crp_test_ key> of the account.');
  const key = world.keys.find(match[1] ?? '');
  if (!key) throw new ApiError('unauthorized', 'The API key is not valid for this sandbox. Send a crp_test_ key this sandbox issued.');
  return key.account;
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const values = query.getAll(name);
  if (values.length === 0) return fallback;
  if (values.length > 1) throw validation(name, `${name} was given ${values.length} times; give it once.`);
  const text = values[0] as string;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw validation(name, `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}.`);
  return value;
}

function noParams(query: URLSearchParams): void {
  const first = [...query.keys()][0];
  if (first !== undefined) throw validation(first, `${JSON.stringify(first)} is not a recognised query parameter: this endpoint takes none.`);
}

async function readObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validation('(body)', 'The request body is not valid JSON. Send a JSON object with content-type application/json.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validation('(body)', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}
