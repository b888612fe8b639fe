import type { IssueKeyOptions } from '../../access/keys.js';
import type { PopulateOptions, PopulateResult } from '../../domain/populate.js';
import type { Faults } from '../../faults/faults.js';
import type { Account } from '../../model/model.js';
import type { World } from '../../model/world.js';
import { ApiError, validation } from '../api-error.js';
import type { RequestLog } from '../request-log.js';
import { readJson } from '../request-body.js';

/** What the control API may do to the sandbox. */
export interface ControlDeps {
  world: () => World;
  faults: Faults;
  issueKey(options: IssueKeyOptions): string;
  populate(key: string, options: PopulateOptions): PopulateResult;
  reset(): void;
  /** The service's request log (control calls are never in it). */
  log: RequestLog;
  adminToken: string | undefined;
}

export interface ControlContext {
  deps: ControlDeps;
  world: World;
  query: URLSearchParams;
  request: Request;
}

export interface ControlRoute {
  method: string;
  /** Under /_sandbox: '/clock/advance'. */
  path: string;
  /** One line for GET /_sandbox. */
  summary: string;
  handler(ctx: ControlContext): { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;
}

/** The JSON object a control call sent (`{}` when none). */
export async function readObject(request: Request): Promise<Record<string, unknown>> {
  const body = await readJson(request);
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw validation('(body)', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function noParams(query: URLSearchParams): void {
  const first = [...query.keys()][0];
  if (first !== undefined)
    throw validation(first, `${JSON.stringify(first)} is not a recognised query parameter: this endpoint takes none.`);
}

/** The key in `Authorization: Bearer …`, which names the account a data call is about. */
export function bearerKey(world: World, request: Request, purpose: string): { key: string; account: Account } {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  if (!match)
    throw new ApiError(
      'unauthorized',
      `Say whose data to ${purpose}: send Authorization: Bearer <crp_test_ key> of the account.`,
    );
  const key = match[1] as string;
  const found = world.keys.find(key);
  if (!found)
    throw new ApiError(
      'unauthorized',
      'The API key is not valid for this sandbox. Send a crp_test_ key this sandbox issued.',
    );
  return { key, account: found.account };
}
