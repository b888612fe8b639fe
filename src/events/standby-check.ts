/**
 * What a standby checks while it waits: whose checkpoint it would go on from. A replica run with
 * another account's key (or another service) on the same checkpoint is refused as soon as it
 * stands by, by the same check the watcher makes when it loads the checkpoint (state.ts), not
 * only at failover, when it is needed.
 */
import type { StateIdentity } from './state.js';
import { WatchState } from './state.js';

/**
 * For `LockOptions.check`: loads the checkpoint's first line alone into a throwaway state (nothing
 * is saved), which throws `CheckpointInvalidError` for another key, service or format; resolves to
 * true once that line is a snapshot (it names the key), false for a journal line (no snapshot yet).
 */
export function standbyCheck(
  identity: StateIdentity,
  previousKeys: readonly string[],
): (firstLine: string) => Promise<boolean> {
  return async (firstLine) => {
    await WatchState.load({ load: async () => [firstLine], save: async () => undefined }, identity, previousKeys);
    // A valid line is either a snapshot (a JSON object) or a journal line (a JSON array).
    return firstLine.trimStart().startsWith('{');
  };
}
