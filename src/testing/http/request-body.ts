import type * as z from 'zod/mini';
import { check } from '../../schemas/index.js';
import { validation } from './api-error.js';

/** The request's JSON body; `undefined` when empty. Malformed JSON is a 400 with field "(body)". */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validation('(body)', 'The request body is not valid JSON. Send a JSON object with content-type application/json.');
  }
}

/** The body checked against a strict request schema; the first problem becomes a 400 with its field. */
export function validBody<S extends z.ZodMiniType>(schema: S, body: unknown): z.infer<S> {
  const result = check(schema, body);
  if (!result.ok) throw validation(result.problem.field, `${result.problem.message}.`.replace(/\.\.$/, '.'));
  return result.value;
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
  throw validation('(body)', 'This endpoint takes no body; send none.');
}
