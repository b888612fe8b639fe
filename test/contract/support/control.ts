/** Plain-fetch calls to a sandbox's control API (/_sandbox/…): what a test in any language would send. */
export interface ControlReply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function control(
  baseUrl: string,
  method: string,
  path: string,
  init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ControlReply> {
  const payload = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const r = await fetch(`${baseUrl}/_sandbox${path}`, {
    method,
    headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}
