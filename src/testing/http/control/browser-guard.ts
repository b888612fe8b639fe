import { ApiError } from '../api-error.js';

/**
 * The control API resets the sandbox, injects faults and issues keys: a web page the developer
 * visits must not be able to do that (CSRF). Browsers mark their requests: `Origin` on every
 * cross-origin request and every POST, `Sec-Fetch-Site` on every request. Neither is sent by curl,
 * Node, Python or any other test client, so a control call carrying one is refused; only
 * `Sec-Fetch-Site: none` (the developer typing the address) passes.
 */
export function refuseBrowserPages(request: Request): void {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if (origin === null && (site === null || site === 'none')) return;
  const from =
    origin !== null
      ? `Origin ${JSON.stringify(origin.slice(0, 100))}`
      : `Sec-Fetch-Site ${JSON.stringify(site?.slice(0, 20))}`;
  throw new ApiError(
    'forbidden_origin',
    `The control API does not take calls from web pages (this one came with ${from}): a page you visit could ` +
      `otherwise reset the sandbox, inject faults or issue keys. Call it from a test, a script or curl, ` +
      `which send no Origin.`,
  );
}

/**
 * A control POST must say `Content-Type: application/json`, even without a body: an HTML form or
 * a `no-cors` fetch cannot send that type without the browser asking first (a CORS preflight,
 * which the sandbox never grants), so no page can fire a control call blind.
 */
export function requireJsonPost(request: Request, method: string): void {
  if (method !== 'POST') return;
  const type = request.headers.get('content-type');
  if (type !== null && type.split(';')[0]?.trim().toLowerCase() === 'application/json') return;
  throw new ApiError(
    'unsupported_media_type',
    `A control POST must carry Content-Type: application/json, even without a body ` +
      `(${type === null ? 'none was sent' : `got ${JSON.stringify(type.slice(0, 100))}`}). ` +
      `With curl: -H 'content-type: application/json'.`,
    'content-type',
  );
}
