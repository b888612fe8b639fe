import { ApiError, validation } from './api-error.js';
import { BODY, type Rule } from './validation/rules.js';

/** The largest request body the sandbox reads; larger ones get 413 without being buffered. */
export const MAX_BODY_BYTES = 256 * 1024;
/** The deepest nesting of objects and arrays a body may have. */
export const MAX_BODY_DEPTH = 32;

/**
 * The request's JSON body; `undefined` when empty. Read only here, after the key was checked
 * (so an unauthenticated upload is never buffered), at most MAX_BODY_BYTES of it.
 */
export async function readJson(request: Request): Promise<unknown> {
  const text = await readCapped(request);
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw validation(
      BODY,
      'The request body is not valid JSON. Send a JSON object with content-type application/json.',
    );
  }
  if (depthOver(body, MAX_BODY_DEPTH))
    throw validation(
      BODY,
      `The request body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep; no endpoint takes that.`,
    );
  return body;
}

/** The body checked by a rule; the first problem becomes a 400 with its field. */
export function validBody<T>(rule: Rule<T>, body: unknown): T {
  return rule(body, '');
}

/** Endpoints that take no body accept none, or an empty object. */
export async function expectNoBody(request: Request): Promise<void> {
  const body = await readJson(request);
  if (body === undefined) return;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const first = Object.keys(body)[0];
    if (first === undefined) return;
    throw validation(first, `${JSON.stringify(first)} is not a recognised field: this endpoint takes no body.`);
  }
  throw validation(BODY, 'This endpoint takes no body; send none.');
}

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB, the most any endpoint takes. Send less.`,
  );
}

async function readCapped(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether `value` nests deeper than `limit`, walked with an explicit stack (no recursion to overflow). */
function depthOver(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return true;
    for (const inner of Object.values(v))
      if (typeof inner === 'object' && inner !== null) stack.push([inner, depth + 1]);
  }
  return false;
}
