// Type-checked by scripts/check-package.mjs once msw is installed in the consumer project: the
// handlers are msw's own type there (without msw, types.mts proves the declarations still compile).
import { createSandbox } from '@crp/partner-sdk/testing';
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';

const sandbox = createSandbox({ seed: 1 });
const handlers = sandbox.mswHandlers();
const first: HttpHandler | undefined = handlers[0];
export const server = setupServer(...handlers);
// @ts-expect-error: with msw installed the handlers are msw's HttpHandler, not `any`
export const notANumber: number = first;
