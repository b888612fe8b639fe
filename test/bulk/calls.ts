/** What the bulk tests watch: every enrollment request on the wire, per store id, in the order things happened. */

/** One enrollment request: when it left and when its answer came back, on one shared counter. */
export interface Call {
  id: string;
  name: string;
  start: number;
  end: number;
  status: number;
}

/** A fetch for the client (passing requests to `inner`) that records every POST to /locations, and the calls it saw. */
export function watchedFetch(inner: (request: Request) => Promise<Response> = (request) => fetch(request)): {
  fetch: typeof fetch;
  calls: Call[];
} {
  const calls: Call[] = [];
  let tick = 0;
  const watched: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/locations')) return inner(request);
    const body = (await request.clone().json()) as { partner_location_id: string; name: string };
    const call: Call = {
      id: body.partner_location_id,
      name: body.name,
      start: ++tick,
      end: Number.POSITIVE_INFINITY,
      status: 0,
    };
    calls.push(call);
    try {
      const response = await inner(request);
      call.status = response.status;
      return response;
    } finally {
      call.end = ++tick;
    }
  };
  return { fetch: watched, calls };
}

/** Pairs of calls for one id whose times overlap: a run that raced itself. */
export function overlapping(calls: readonly Call[]): Array<[Call, Call]> {
  const found: Array<[Call, Call]> = [];
  calls.forEach((a, i) => {
    for (const b of calls.slice(i + 1)) if (a.id === b.id && a.start < b.end && b.start < a.end) found.push([a, b]);
  });
  return found;
}
