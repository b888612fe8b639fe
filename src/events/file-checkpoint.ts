import { CheckpointLockedError } from '../index.js';
import { realClock } from '../core/clock.js';
import type { Checkpoint } from './checkpoint.js';
import { invalid } from './checkpoint-format.js';
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
 * A last line cut short by a crash, a power loss or a full disk was never confirmed: it is left out
 * when read and cut off before the next line is added.
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
  /** Whether the file is known to end with a whole line, so the next line can go straight after it. */
  let whole = false;
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
      if (text === '') return [];
      // A record is complete once its newline is written; a crash mid-append leaves a tail without one.
      // The first line is a snapshot, written whole (renamed into place): without its newline the file is not a checkpoint.
      const end = text.lastIndexOf('\n');
      if (end < 0) throw invalid(`${path} holds no complete line: it is not a checkpoint, or its first line was cut`);
      return text.slice(0, end).split('\n');
    },
    async save(record, { replace = false } = {}) {
      if (record.includes('\n')) throw new TypeError('A checkpoint record must be a single line.');
      const fs = await nodeFs();
      if (replace) {
        const aside = `${path}.${currentPid() ?? 0}.tmp`;
        await writeFile(fs, aside, `${record}\n`, 'w', fsync);
        await fs.rename(aside, path);
        whole = true;
      } else {
        // Added straight after a torn line, a record would join it into one damaged line.
        if (!whole) await cutTornTail(fs, path);
        whole = false;
        await writeFile(fs, path, `${record}\n`, 'a', fsync);
        whole = true;
      }
    },
    lock: ({ wait = false, signal } = {}) =>
      wait ? waitForLock(`${path}.lock`, signal) : acquireFileLock(`${path}.lock`),
  };
}

async function writeFile(
  fs: typeof import('node:fs/promises'),
  file: string,
  data: string,
  flag: 'w' | 'a',
  fsync: boolean,
): Promise<void> {
  if (!fsync) return fs.writeFile(file, data, { flag });
  const handle = await fs.open(file, flag);
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Cut the file back to its last whole line (a line without its newline was never confirmed). */
async function cutTornTail(fs: typeof import('node:fs/promises'), path: string): Promise<void> {
  let data: Buffer;
  try {
    const handle = await fs.open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size === 0) return;
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] === 0x0a) return;
      data = Buffer.alloc(size);
      await handle.read(data, 0, size, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  const end = data.lastIndexOf(0x0a);
  if (end < 0) throw invalid(`${path} holds no complete line: it is not a checkpoint, or its first line was cut`);
  await fs.truncate(path, end + 1);
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
    // Real time, whatever the client's clock: the lock's holder is a real process.
    await realClock.sleep(FILE_LOCK_POLL_MS, signal);
  }
}
