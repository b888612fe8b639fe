/** The only file that imports msw (the crp-sandbox command never loads it). */
import { http, type HttpHandler } from 'msw';
import type { Dispatcher } from './dispatch.js';
import { untilAborted } from './outcome.js';

export const DEFAULT_MSW_BASE_URL = 'https://sandbox.crp.test';

/**
 * msw handlers that answer every request under `baseUrl` with the sandbox, for a partner's own
 * `setupServer(...)`. A reset becomes a network error (`Response.error()`); a hang waits until
 * the request's signal aborts.
 */
export function mswHandlers(dispatch: Dispatcher, remoteAddress: () => string, baseUrl = DEFAULT_MSW_BASE_URL): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  return [
    http.all(`${base}/*`, async ({ request }) => {
      const outcome = await dispatch(request, { remoteAddress: remoteAddress(), signal: request.signal });
      if (outcome.type === 'response') return outcome.response;
      if (outcome.type === 'hang') await untilAborted(request.signal);
      return Response.error();
    }),
  ];
}
