/** The only file that uses msw (the crp-sandbox command and `listen()` never load it). */
import { createRequire } from 'node:module';
import type { MswHandler } from './msw-handler.js';
import type { InProcessDispatch } from '../emulator.js';
import { untilAborted } from '../http/outcome.js';

/** Where `sandbox.mswHandlers()` answers when given no base URL: point the client's `baseUrl` here. */
export const DEFAULT_MSW_BASE_URL = 'https://sandbox.crp.test';

type Msw = typeof import('msw');
let msw: Msw | undefined;

/**
 * msw is an optional peer dependency, so it is loaded on the first `mswHandlers()` call rather
 * than imported: `@crp/partner-sdk/testing` then works without msw for `listen()`. Loading is
 * synchronous (createRequire) to keep `mswHandlers()` synchronous. msw recognises handlers by
 * their `kind`, not by class, so they work with the caller's `setupServer` from ESM or CJS.
 */
function loadMsw(): Msw {
  if (msw) return msw;
  try {
    msw = createRequire(import.meta.url)('msw') as Msw;
  } catch (error) {
    throw new Error('sandbox.mswHandlers() needs msw, an optional peer dependency: npm install --save-dev msw@^2.15', {
      cause: error,
    });
  }
  return msw;
}

/**
 * msw handlers that answer every request under `baseUrl` with the sandbox, for a partner's own
 * `setupServer(...)`. A reset becomes a network error (`Response.error()`); a hang waits until
 * the request's signal aborts.
 */
export function mswHandlers(dispatch: InProcessDispatch, baseUrl = DEFAULT_MSW_BASE_URL): MswHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  return [
    loadMsw().http.all(`${base}/*`, async ({ request }) => {
      const outcome = await dispatch(request);
      if (outcome.type === 'response') return outcome.response;
      if (outcome.type === 'hang') await untilAborted(request.signal);
      return Response.error();
    }),
  ];
}
