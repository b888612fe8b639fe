/**
 * Partners' hooks, in ky's shape, run on every attempt: `beforeRequest` may add a header (a
 * trace id) or return a Response; `afterResponse` may time or log. Each is wrapped so that a hook
 * that throws fails the call with a `HookError` naming it. `afterResponse` hooks make ky clone the
 * response, so that cost is paid only when a partner adds one.
 */
import type { AfterResponseHook as KyAfterResponseHook, BeforeRequestHook as KyBeforeRequestHook, Hooks } from 'ky';

/** Runs before each attempt is sent; may change the request's headers, or return a Request or Response to use instead. */
export type BeforeRequestHook = (
  request: Request,
  options: unknown,
  state: { retryCount: number },
) => Request | Response | void | Promise<Request | Response | void>;

/** Runs after each attempt's response arrives (any status); may return a Response to use instead. */
export type AfterResponseHook = (
  request: Request,
  options: unknown,
  response: Response,
  state: { retryCount: number },
) => Response | void | Promise<Response | void>;

/** ky's hooks, passed through on every attempt (ky's own shape, for partners who know it). */
export interface ClientHooks {
  /** Run in order before each attempt is sent. */
  beforeRequest?: BeforeRequestHook[];
  /** Run in order after each attempt's response arrives. */
  afterResponse?: AfterResponseHook[];
}

/** A partner hook threw: which one, and what it threw. */
export class HookFailure extends Error {
  override readonly name = 'HookFailure';
  constructor(
    readonly hook: string,
    readonly thrown: unknown,
  ) {
    super(`${hook} failed`);
  }
}

export function kyHooks(hooks: ClientHooks | undefined): Hooks {
  const out: Hooks = {};
  if (hooks?.beforeRequest?.length) {
    out.beforeRequest = hooks.beforeRequest.map(
      (hook, i): KyBeforeRequestHook =>
        async (request, options, state) => {
          try {
            return await hook(request, options, state);
          } catch (error) {
            throw new HookFailure(`hooks.beforeRequest[${i}]`, error);
          }
        },
    );
  }
  if (hooks?.afterResponse?.length) {
    out.afterResponse = hooks.afterResponse.map(
      (hook, i): KyAfterResponseHook =>
        async (request, options, response, state) => {
          try {
            return await hook(request, options, response, state);
          } catch (error) {
            throw new HookFailure(`hooks.afterResponse[${i}]`, error);
          }
        },
    );
  }
  return out;
}
