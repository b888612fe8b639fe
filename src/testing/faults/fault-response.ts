import { internalErrorMessage } from '../http/api-error.js';
import type { FaultShape } from './faults.js';
import { jsonResponse } from '../http/json-response.js';

const CODES: Record<number, [code: string, message: string]> = {
  400: ['validation_error', 'The request was refused (injected fault).'],
  401: ['unauthorized', 'The key was refused (injected fault). Check the Authorization header.'],
  403: ['forbidden_ip', 'The caller address was refused (injected fault).'],
  404: ['not_found', 'Nothing was found here (injected fault).'],
  409: ['conflict', 'The request conflicts with the current state (injected fault).'],
  429: ['rate_limited', 'Too many requests (injected fault). Wait for Retry-After seconds, then retry.'],
  502: ['bad_gateway', 'An upstream service failed (injected fault). Retry later.'],
  503: ['unavailable', 'The service is temporarily unavailable (injected fault). Retry later.'],
  504: ['gateway_timeout', 'An upstream service timed out (injected fault). Retry later.'],
};

const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  429: 'Too Many Requests',
};

/** The answer of a status fault: the contract's JSON error body, a proxy-style HTML page, or no body. */
export function statusFaultResponse(fault: FaultShape & { status: number }, ref: string): Response {
  const status = fault.status;
  // Header names are case-insensitive: lower-case them so a caller's 'Retry-After' replaces the default.
  const given = Object.fromEntries(
    Object.entries(fault.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const extra: Record<string, string> = { ...(status === 429 ? { 'retry-after': '1' } : {}), ...given };
  switch (fault.body ?? 'json') {
    case 'html': {
      const reason = REASONS[status] ?? 'Error';
      const page =
        `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n` +
        `<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
      return new Response(page, { status, headers: { 'content-type': 'text/html', ...extra } });
    }
    case 'empty':
      return new Response(null, { status, headers: extra });
    case 'json': {
      const [code, message] =
        status >= 500 && !CODES[status]
          ? ['internal_error', internalErrorMessage(ref)]
          : (CODES[status] ?? ['error', `The request failed with status ${status} (injected fault).`]);
      return jsonResponse(status, { error: { code, message } }, extra);
    }
  }
}

/** 200 with a JSON body cut off halfway: the original answer's, or a small list page. */
export async function malformedResponse(original: Response | undefined): Promise<Response> {
  const text = original
    ? await original.text()
    : '{"items":[{"reservation_id":"res_000001","status":"pending"}],"next_cursor":null}';
  return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
