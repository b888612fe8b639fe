import { CheckpointLockedError } from '../index.js';
import type { Checkpoint } from './checkpoint.js';
import { acquireFileLock } from './file-lock.js';
import { currentPid, nodeFs } from './node-modules.js';

/** Options of {@link fileCheckpoint}. */
export interface FileCheckpointOptions {
  /**
   * Flush each write to the disk before going on (fsync), so the checkpoint also survives a power
   * failure, at a few milliseconds per event. Without it, a crash or `kill -9` of the process loses
   * nothing either (the operating system still holds the writes).
   * @default false
   */
  fsync?: boolean;
}

/**
 * A checkpoint in a file, for one watcher at a time (a second one, in this or another process,
 * gets `CheckpointLockedError`; `<path>.lock` names the holder, and a lock left by a process that
 * died is taken over; with `standby: true` it waits for the lock instead, looking every
 * quarter second). Snapshots are written atomically (a temporary file renamed over `path`);
 * each confirmed event adds one short line, so a save costs the same however many stores there are.
 *
 * @example
 * ```ts
 * import { fileCheckpoint, watchEvents } from '@crp/partner-sdk/events';
 *
 * for await (const event of watchEvents(client, { checkpoint: fileCheckpoint('./crp-events.json'), signal })) {
 *   await handle(event);
 * }
 * ```
 */
export function fileCheckpoint(path: string, options: FileCheckpointOptions = {}): Checkpoint {
  const fsync = options.fsync ?? false;
  return {
    async load() {
      const fs = await nodeFs();
      let text: string;
      try {
        text = await fs.readFile(path, 'utf8');
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return [];
        throw error;
      }
      // A record is complete once its newline is written; a crash mid-append leaves a tail without one.
      const lines = text.split('\n');
      lines.pop();
      return lines.filter((line) => line !== '');
    },
    async save(record, { replace = false } = {}) {
      if (record.includes('\n')) throw new TypeError('A checkpoint record must be a single line.');
      const fs = await nodeFs();
      if (replace) {
        const aside = `${path}.${currentPid() ?? 0}.tmp`;
        await writeFile(fs, aside, `${record}\n`, 'w', fsync);
        await fs.rename(aside, path);
      } else {
        await writeFile(fs, path, `${record}\n`, 'a', fsync);
      }
    },
    lock: ({ wait = false, signal } = {}) => (wait ? waitForLock(`${path}.lock`, signal) : acquireFileLock(`${path}.lock`)),
  };
}

async function writeFile(fs: typeof import('node:fs/promises'), file: string, data: string, flag: 'w' | 'a', fsync: boolean): Promise<void> {
  if (!fsync) return fs.writeFile(file, data, { flag });
  const handle = await fs.open(file, flag);
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** How often a standby looks whether the lock file is free. */
const FILE_LOCK_POLL_MS = 250;

async function waitForLock(lockPath: string, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      return await acquireFileLock(lockPath);
    } catch (error) {
      if (!(error instanceof CheckpointLockedError)) throw error;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      }, FILE_LOCK_POLL_MS);
      const abort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
