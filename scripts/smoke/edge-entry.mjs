/**
 * Bundled by esbuild (as a worker deployment would bundle it) and evaluated in edge-runtime:
 * exposes the smoke client and the browser guard on globalThis for the orchestrator.
 */
import * as sdk from '@crp/partner-sdk';
import { browserGuard, smoke } from './client.mjs';

globalThis.__crpSmoke = (options) => smoke(sdk, options);
globalThis.__crpBrowserGuard = (options) => browserGuard(sdk, options);
