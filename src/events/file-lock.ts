import { CheckpointLockedError } from '../index.js';
import { currentPid, nodeFs, nodeOs, processAlive } from './node-modules.js';

interface LockOwner {
  pid: number | undefined;
  host: string;
  token: string;
  at: string;
}

/** Lock files held by this process: a second watcher here is refused even though our pid is alive. */
const heldHere = new Set<string>();

/**
 * Take `lockPath` for this process. The file names its owner (pid and host); it is created whole
 * (written aside, then hard-linked into place, which fails if it exists), so a reader never sees
 * half a lock. A lock whose process no longer runs on this host is taken over.
 */
export async function acquireFileLock(lockPath: string): Promise<() => Promise<void>> {
  const fs = await nodeFs();
  const host = (await nodeOs()).hostname();
  if (heldHere.has(lockPath)) throw lockedError(lockPath, { pid: currentPid(), host, token: '', at: '' }, true);
  const owner: LockOwner = { pid: currentPid(), host, token: Math.random().toString(36).slice(2), at: new Date().toISOString() };
  const aside = `${lockPath}.${owner.token}.tmp`;
  await fs.writeFile(aside, JSON.stringify(owner));
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await fs.link(aside, lockPath);
        heldHere.add(lockPath);
        return async () => {
          heldHere.delete(lockPath);
          const now = await readOwner(lockPath);
          if (now?.token === owner.token) await fs.rm(lockPath, { force: true });
        };
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      }
      const holder = await readOwner(lockPath);
      if (holder && (holder.host !== host || holder.pid === undefined || processAlive(holder.pid))) throw lockedError(lockPath, holder, false);
      // The holder died (or left an unreadable file): move its lock out of the way and try again.
      // Renaming is atomic, so of two processes taking over at once only one moves this file.
      await fs.rename(lockPath, `${lockPath}.${owner.token}.stale`).catch(() => undefined);
      await fs.rm(`${lockPath}.${owner.token}.stale`, { force: true });
    }
    throw lockedError(lockPath, await readOwner(lockPath), false);
  } finally {
    await fs.rm(aside, { force: true });
  }
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  const fs = await nodeFs();
  try {
    const parsed = JSON.parse(await fs.readFile(lockPath, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.host === 'string' ? (parsed as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function lockedError(lockPath: string, holder: LockOwner | undefined, here: boolean): CheckpointLockedError {
  const who = here
    ? 'another watcher in this process'
    : `process ${holder?.pid ?? '?'} on ${holder?.host ?? 'an unknown host'} (since ${holder?.at ?? '?'})`;
  return new CheckpointLockedError(
    `The checkpoint is in use by ${who} (lock file ${lockPath}). Two watchers on one checkpoint would deliver every event twice: ` +
      'stop the other watcher, or give this one its own checkpoint. If no watcher is running (for example it ran on another host that is gone), delete the lock file.',
    holder?.pid,
  );
}
