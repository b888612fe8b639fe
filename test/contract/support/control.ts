/** Plain-fetch calls to a sandbox's control API (/_sandbox/…): what a test in any language would send. */
import { send, type CallOptions, type Reply } from './harness.js';

export function control(
  baseUrl: string,
  method: string,
  path: string,
  init: Pick<CallOptions, 'body' | 'rawBody' | 'headers'> = {},
): Promise<Reply> {
  // A control POST is JSON even without a body, as the sandbox requires.
  const headers = method === 'POST' ? { 'content-type': 'application/json', ...init.headers } : init.headers;
  return send(method, `${baseUrl}/_sandbox${path}`, { ...init, ...(headers ? { headers } : {}) });
}
