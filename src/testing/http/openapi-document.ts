import document from './openapi.json' with { type: 'json' };
import { jsonResponse } from './json-response.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the service and of the control API. It is
 * generated from the SDK's schemas (src/openapi/, `npm run build`), and the sandbox, which
 * imports nothing from the SDK, serves the generated copy committed beside this file
 * (test/openapi/drift.test.ts fails when that copy is stale). Like the control API, it needs no
 * key and is never faulted, rate-limited or logged.
 */
export const DOCUMENT_PATH = '/openapi.json';

let text: string | undefined;

export function documentResponse(request: Request): Response {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    return jsonResponse(405, { error: { code: 'method_not_allowed', message: `${method} is not supported on ${DOCUMENT_PATH}. Use GET.` } }, { Allow: 'GET, HEAD' });
  }
  text ??= JSON.stringify(document);
  return new Response(method === 'HEAD' ? null : text, { status: 200, headers: { 'content-type': 'application/json' } });
}
