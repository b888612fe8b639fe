import { ApiError, internalErrorMessage } from './api-error.js';
import { DomainError } from '../model/domain-error.js';
import { apiErrorFor } from './domain-errors.js';
import { jsonResponse } from './json-response.js';
import type { KeyRecord } from '../access/keys.js';
import { matchRoute, type Route } from './router.js';
import type { World } from '../model/world.js';

/**
 * The service itself, after faults: authentication, the key's IP allow-list, its rate
 * limit, then the endpoint. Every answer is JSON and carries x-request-id; every answer
 * to an authenticated caller also carries the RateLimit-* headers.
 */
export async function serve(
  world: World,
  routes: readonly Route[],
  request: Request,
  requestId: string,
  remoteAddress: string,
): Promise<Response> {
  let headers: Record<string, string> = { 'x-request-id': requestId };
  try {
    const key = authenticate(world, request);
    if (key.allowList && !key.allowList.allows(remoteAddress)) {
      throw new ApiError(
        'forbidden_ip',
        `Calls from ${remoteAddress} are not allowed for this key. Call from an address on the key's allow-list, or ask for the address to be added.`,
      );
    }
    const rate = key.limits.take();
    headers = { ...headers, ...rate.headers };
    if (!rate.allowed) {
      const why = rate.burst
        ? 'This key sent too many requests in a short burst'
        : `This key has used its ${key.limits.policy.limit} requests for the current window`;
      throw new ApiError(
        'rate_limited',
        `${why}. Wait ${rate.retryAfterSeconds} s (Retry-After), then retry.`,
        undefined,
        { 'Retry-After': rate.retryAfter ?? '1' },
      );
    }
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const match = matchRoute(routes, method, url.pathname);
    if (match.kind === 'none') {
      throw new ApiError(
        'not_found',
        `There is no endpoint at ${url.pathname}. Paths start with /partner/v1; GET /openapi.json lists ` +
          `every endpoint (docs/http.md in @crp/partner-sdk walks through them).`,
      );
    }
    if (match.kind === 'wrong_method') {
      throw new ApiError(
        'method_not_allowed',
        `${method} is not supported on ${url.pathname}. Use ${match.allowed.join(' or ')}.`,
        undefined,
        { Allow: match.allowed.join(', ') },
      );
    }
    const reply = await match.route.handler({
      world,
      account: key.account,
      params: match.params,
      query: url.searchParams,
      request,
    });
    return jsonResponse(reply.status, reply.body, headers);
  } catch (thrown) {
    const error = thrown instanceof DomainError ? apiErrorFor(thrown.problem) : thrown;
    if (error instanceof ApiError) return jsonResponse(error.status, error.body(), { ...headers, ...error.headers });
    console.error('[crp-sandbox] unexpected error', error);
    return jsonResponse(
      500,
      { error: { code: 'internal_error', message: internalErrorMessage(supportRef(requestId)) } },
      headers,
    );
  }
}

function authenticate(world: World, request: Request): KeyRecord {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw new ApiError(
      'unauthorized',
      'No API key was sent. Send the header Authorization: Bearer <key>, with a crp_test_ key issued by this sandbox.',
    );
  const token = match[1] ?? '';
  if (token.startsWith('crp_live_')) {
    throw new ApiError(
      'unauthorized',
      'This is a live key (crp_live_), and this is the sandbox. Use a crp_test_ key here, and live keys only against production.',
    );
  }
  const key = world.keys.find(token);
  if (!key)
    throw new ApiError(
      'unauthorized',
      'The API key is not valid for this sandbox. Check it was copied whole and was issued by this sandbox (crp_test_...).',
    );
  return key;
}

/** 8 upper-case characters a support engineer could look up, derived from the request id. */
export function supportRef(requestId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < requestId.length; i++) h = Math.imul(h ^ requestId.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).toUpperCase().padStart(8, '0');
}
