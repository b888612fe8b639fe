import type { HttpHandler } from 'msw';

/**
 * An msw request handler (msw's own `HttpHandler`), for `setupServer(...sandbox.mswHandlers())`.
 * msw is an optional peer dependency: the build marks this import in the published declarations
 * so that, without msw installed, it is `any` instead of a compile error (scripts/optional-peer-types.mjs).
 */
export type MswHandler = HttpHandler;
