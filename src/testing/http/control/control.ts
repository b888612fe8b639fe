/**
 * The control API under /_sandbox/: what a test does to the sandbox from outside the process,
 * in any language (clock, faults, keys, populate, the change log, the request log, reset). It never
 * reaches the service: no faults, no rate limit, and control calls are not in the request log. When an admin token is set, every control
 * call must carry it in `X-Sandbox-Admin-Token`; a crp_test_ key alone never opens it. Calls from web
 * pages are refused, and a POST must say `Content-Type: application/json` (`browser-guard.ts`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../model/domain-error.js';
import { ApiError } from '../api-error.js';
import { apiErrorFor } from '../domain-errors.js';
import { jsonResponse } from '../json-response.js';
import { refuseBrowserPages, requireJsonPost } from './browser-guard.js';
import { clockRoutes } from './clock-control.js';
import type { ControlDeps, ControlRoute } from './control-route.js';
import { dataRoutes } from './data-control.js';
import { faultRoutes } from './faults-control.js';
import { keyRoutes } from './keys-control.js';

export const CONTROL_PREFIX = '/_sandbox';
export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token';

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export function createControl(deps: ControlDeps): (request: Request) => Promise<Response> {
  const routes: ControlRoute[] = [...clockRoutes, ...faultRoutes, ...keyRoutes, ...dataRoutes];
  const index: ControlRoute = {
    method: 'GET',
    path: '/',
    summary: 'this list',
    handler: () => ({
      body: {
        endpoints: routes.map((r) => `${r.method} ${CONTROL_PREFIX}${r.path === '/' ? '' : r.path}  ${r.summary}`),
      },
    }),
  };
  routes.unshift(index);

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(CONTROL_PREFIX.length).replace(/\/$/, '') || '/';
    const method = request.method.toUpperCase();
    try {
      refuseBrowserPages(request);
      checkAdmin(deps.adminToken, request);
      requireJsonPost(request, method);
      const route = routes.find((r) => r.path === path && r.method === method);
      if (!route) {
        const allowed = routes.filter((r) => r.path === path).map((r) => r.method);
        if (allowed.length > 0)
          throw new ApiError(
            'method_not_allowed',
            `${method} is not supported on ${url.pathname}. Use ${allowed.join(' or ')}.`,
            undefined,
            { Allow: allowed.join(', ') },
          );
        throw new ApiError(
          'not_found',
          `There is no control endpoint at ${url.pathname}. GET ${CONTROL_PREFIX} lists them; docs/sandbox.md describes them.`,
        );
      }
      const reply = await route.handler({ deps, world: deps.world(), query: url.searchParams, request });
      return jsonResponse(reply.status ?? 200, reply.body);
    } catch (thrown) {
      const error = thrown instanceof DomainError ? apiErrorFor(thrown.problem) : thrown;
      if (error instanceof ApiError) return jsonResponse(error.status, error.body(), error.headers);
      throw error;
    }
  };
}

function checkAdmin(expected: string | undefined, request: Request): void {
  if (expected === undefined) return;
  const given = request.headers.get(ADMIN_TOKEN_HEADER);
  if (given === null) {
    throw new ApiError(
      'unauthorized',
      'This sandbox’s control API needs its admin token: send the header X-Sandbox-Admin-Token: <token> (the ' +
        '--admin-token it was started with). A crp_test_ key does not open it.',
    );
  }
  // Compare digests: equal lengths for timingSafeEqual, and no early exit on the first wrong byte.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  if (!timingSafeEqual(digest(given), digest(expected))) {
    throw new ApiError(
      'unauthorized',
      'X-Sandbox-Admin-Token does not match the admin token this sandbox was started with.',
    );
  }
}
