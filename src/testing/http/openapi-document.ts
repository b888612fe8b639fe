import document from './openapi.json' with { type: 'json' };
import { jsonResponse } from './json-response.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the service and of the control API. It is
 * generated from the SDK's schemas (src/openapi/, `npm run build`), and the sandbox, which
 * imports nothing from the SDK, serves the generated copy committed beside this file
 * (test/openapi/document.test.ts fails when that copy is stale). Like the control API, it needs no
 * key and is never faulted, rate-limited or logged. Its `servers` names the origin the caller
 * reached, so a generator pointed at any port (or a published one) gets a client for that address.
 */
export const DOCUMENT_PATH = '/openapi.json';

const texts = new Map<string, string>();
/** Enough origins for every name a sandbox answers to; beyond, the oldest is dropped. */
const MAX_ORIGINS = 16;

/** `origin`: where the caller reached this sandbox, e.g. `http://127.0.0.1:53124`. */
export function documentResponse(request: Request, origin: string): Response {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    return jsonResponse(
      405,
      { error: { code: 'method_not_allowed', message: `${method} is not supported on ${DOCUMENT_PATH}. Use GET.` } },
      { Allow: 'GET, HEAD' },
    );
  }
  let text = texts.get(origin);
  if (text === undefined) {
    text = JSON.stringify({
      ...document,
      servers: [
        {
          url: origin,
          description:
            "This sandbox, at the address this document was fetched from (production's base address comes with access).",
        },
      ],
    });
    if (texts.size >= MAX_ORIGINS) texts.delete(texts.keys().next().value as string);
    texts.set(origin, text);
  }
  return new Response(method === 'HEAD' ? null : text, {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
