/**
 * A service that answers list pages in ways we did not write: a `fetch` for the client that passes
 * every call to the sandbox and rewrites the list pages of the paths it is given (duplicate items,
 * another order, a `next_cursor` it already gave).
 */
import type { PartnerEvent } from '../../src/events/index.js';
import type { Clock } from '../../src/index.js';
import type { SimEnv } from './support.js';

export interface ListPage {
  items: Array<Record<string, unknown>>;
  next_cursor: string | null;
}

/** Rewrites one page: `call` counts the pages of that path answered so far (from 0). */
export type PageRewrite = (page: ListPage, url: URL, call: number) => ListPage;

/**
 * A cursor to put in `next_cursor` for a page that leads back to the list's first page: the
 * service is asked for the first page whenever a call brings it back.
 */
export const BACK_TO_START = 'back-to-start';

/** A `fetch` that rewrites the pages of GET calls whose path matches `path`; `calls` counts every request. */
export function hostileFetch(path: RegExp, rewrite: PageRewrite): typeof fetch & { calls: number } {
  let pages = 0;
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit) => {
    wrapped.calls++;
    let request = new Request(input, init);
    const url = new URL(request.url);
    if (url.searchParams.get('cursor') === BACK_TO_START) {
      const first = new URL(url);
      first.searchParams.delete('cursor');
      request = new Request(first, request);
    }
    const response = await fetch(request);
    if (request.method !== 'GET' || !path.test(url.pathname) || response.status !== 200) return response;
    const page = (await response.json()) as ListPage;
    const body = JSON.stringify(rewrite(page, url, pages++));
    return new Response(body, { status: 200, headers: response.headers });
  };
  wrapped.calls = 0;
  return wrapped as typeof fetch & { calls: number };
}

/** `/locations/{id}/content`: a store's videos. */
export const CONTENT = /\/locations\/[^/]+\/content$/;
/** `/reservations`: the account's bookings (not a store's). */
export const RESERVATIONS = /\/reservations$/;

/**
 * The client's clock on the sandbox's simulated time, whose wall reading can be set back or
 * forward (NTP, a VM restored from a snapshot) while its monotonic reading runs on undisturbed.
 */
export function jumpingClock(env: SimEnv): Clock & { jump(ms: number): void } {
  let offset = 0;
  return {
    now: () => env.clock.now() + offset,
    monotonic: () => env.clock.now(),
    sleep: (ms, signal) => env.clock.sleep(ms, signal),
    jump: (ms) => {
      offset += ms;
    },
  };
}

/** The watcher's events until `go` turns false (checked on a timer: the loop may idle). */
export async function runWhile(
  watcher: AsyncIterable<PartnerEvent>,
  controller: AbortController,
  go: () => boolean,
): Promise<PartnerEvent[]> {
  const events: PartnerEvent[] = [];
  const timer = setInterval(() => {
    if (!go()) controller.abort();
  }, 1);
  try {
    for await (const event of watcher) events.push(event);
  } finally {
    clearInterval(timer);
  }
  return events;
}
