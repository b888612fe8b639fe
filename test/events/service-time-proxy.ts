/**
 * A proxy between the client and the sandbox that rewrites the service's time on its answers: the
 * `Date` header of any answer, and `generated_at` in the summary's body (a broken proxy, servers
 * behind a balancer whose clocks differ, an odd runtime). Every other byte is passed on.
 */

/** What one answer told about the service's time, as the sandbox wrote it. */
export interface TimedAnswer {
  /** Answers so far through this proxy (from 0). */
  index: number;
  /** Summaries so far through this proxy (from 0), on a summary's answer; undefined on any other. */
  summary: number | undefined;
  path: string;
  /** The sandbox's time for this answer (epoch ms). */
  at: number;
}

/** What to put in its place: a value to write, null to leave it out, undefined to keep the sandbox's. */
export interface TimeRewrite {
  date?: string | null;
  generatedAt?: string | null;
}

export type TimeFetch = typeof fetch & { calls: number };

/** Where the service's time is read from: the sandbox's simulated clock. */
export interface TimedService {
  sandbox: { clock: { now(): Date } };
}

/** A `fetch` for the client that rewrites each answer's time as `rewrite` says; `calls` counts every request. */
export function serviceTimeProxy(env: TimedService, rewrite: (answer: TimedAnswer) => TimeRewrite): TimeFetch {
  let index = 0;
  let summaries = 0;
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit) => {
    wrapped.calls++;
    const request = new Request(input, init);
    const response = await fetch(request);
    const path = new URL(request.url).pathname;
    const isSummary = path.endsWith('/summary');
    const answer: TimedAnswer = {
      index: index++,
      summary: isSummary ? summaries++ : undefined,
      path,
      at: env.sandbox.clock.now().getTime(),
    };
    const change = rewrite(answer);
    const headers = new Headers(response.headers);
    if (change.date === null) headers.delete('date');
    else if (change.date !== undefined) headers.set('date', change.date);
    let body: string | undefined = await response.text();
    if (isSummary && response.status === 200 && change.generatedAt !== undefined) {
      const summary = JSON.parse(body) as Record<string, unknown>;
      if (change.generatedAt === null) delete summary.generated_at;
      else summary.generated_at = change.generatedAt;
      body = JSON.stringify(summary);
    }
    headers.delete('content-length');
    return new Response(response.status === 204 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
  wrapped.calls = 0;
  return wrapped as TimeFetch;
}

/** The HTTP date (IMF-fixdate) of an instant. */
export const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** `generated_at` as the service writes it. */
export const isoTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const YEAR = 365 * 86_400_000;
