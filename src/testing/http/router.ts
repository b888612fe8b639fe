import type { Account } from '../model/model.js';
import type { World } from '../model/world.js';

export const PREFIX = '/partner/v1';

/** What a route handler gets: the caller's account, path parameters, query and request. */
export interface RouteContext {
  world: World;
  account: Account;
  params: Record<string, string>;
  query: URLSearchParams;
  request: Request;
}

/** A route's answer: a status and a JSON body. Errors are thrown as ApiError. */
export interface Reply {
  status: number;
  body: unknown;
}

export type RouteHandler = (ctx: RouteContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  /** Under /partner/v1, with `:name` segments: '/locations/:id/pause'. */
  pattern: string;
  handler: RouteHandler;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong_method'; allowed: string[] }
  | { kind: 'none' };

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  if (!path.startsWith(`${PREFIX}/`)) return { kind: 'none' };
  const segments = path
    .slice(PREFIX.length + 1)
    .replace(/\/$/, '')
    .split('/');
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'none' };
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.slice(1).split('/');
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const segment = segments[i] as string;
    if (part.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      if (value === '') return undefined;
      params[part.slice(1)] = value;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}
