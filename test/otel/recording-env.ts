/**
 * A sandbox (msw or a real port, from the shared SDK environment) with the request headers as the
 * server received them: the sandbox's own request log keeps them (the key redacted).
 */
import type { LoggedRequest } from '../../src/testing/index.js';
import { startSdkEnv, type SdkEnv, type TransportKind } from '../helpers/sdk-env.js';

export interface RecordingEnv extends SdkEnv {
  /** Every request the sandbox received since the last `clearReceived()`, oldest first. */
  readonly received: readonly LoggedRequest[];
  /** Forget what was received so far (the sandbox's state stays). */
  clearReceived(): void;
}

export async function startRecordingEnv(kind: TransportKind): Promise<RecordingEnv> {
  const env = await startSdkEnv(kind, { seed: 11 });
  let seen = 0;
  return {
    ...env,
    get received() {
      return env.sandbox.requests.slice(seen);
    },
    clearReceived() {
      seen = env.sandbox.requests.length;
    },
  };
}
