import { createEmulator, type Emulator } from './emulator.js';
import { mswHandlers } from './transports/msw.js';
import type { MswHandler } from './transports/msw-handler.js';
import type { SandboxOptions } from './options.js';

/** The sandbox emulator of the Partner API, with every transport. */
export interface Sandbox extends Emulator {
  /**
   * msw handlers answering every request under `baseUrl` with this sandbox:
   * `setupServer(...sandbox.mswHandlers())`. Callers appear to come from `callerAddress`.
   * @default baseUrl 'https://sandbox.crp.test'
   */
  mswHandlers(baseUrl?: string): MswHandler[];
}

/**
 * A deterministic, in-memory emulator of the Partner API (`/partner/v1`) for tests.
 *
 * @example
 * const sandbox = createSandbox({ seed: 42 });
 * const key = sandbox.issueKey();
 * const server = setupServer(...sandbox.mswHandlers());
 * // or: const { url, close } = await sandbox.listen(0);
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const { emulator, inProcess } = createEmulator(options);
  return Object.assign(emulator, { mswHandlers: (baseUrl?: string) => mswHandlers(inProcess, baseUrl) });
}
