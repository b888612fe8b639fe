import { CheckpointLockedError } from '../index.js';
import { nodeLockIo } from './file-lock-io.js';
import type { ProcessIdentity } from './process-identity.js';

/** What a lock file says: who holds it, since when, and what tells that process from a later one with its pid. */
export interface LockOwner extends ProcessIdentity {
  pid: number | undefined;
  host: string;
  token: string;
  at: string;
}

/**
 * What is at a path: nothing, a lock file, or something that is not one. `id` names that very file,
 * its owner's token or, for anything else, its inode and times; a marker is named after it.
 */
export type LockFile =
  | { kind: 'absent' }
  | { kind: 'owner'; owner: LockOwner; id: string }
  | { kind: 'unreadable'; id: string };

/** Whether a lock file's owner is a watcher of this process, another running process, or gone. */
export type HolderState = 'here' | 'running' | 'gone';

/** Everything the protocol asks of the world; the tests drive it through an interleaving of their own. */
export interface LockIo {
  /** A new owner record for this process, with a token of its own. */
  newOwner(): Promise<LockOwner>;
  /** Create `path` with `text`, whole, only if nothing is there: false when something is. */
  createWhole(path: string, text: string): Promise<boolean>;
  read(path: string): Promise<LockFile>;
  /** Remove `path`; nothing there is fine. */
  remove(path: string): Promise<void>;
  holderState(owner: LockOwner): Promise<HolderState>;
  /** Mark a token held (or no longer held) by this process. */
  holding(token: string, held: boolean): void;
  pause(ms: number): Promise<void>;
}

/** Rounds of looking at the lock before giving up; a takeover in progress is waited for, `PAUSE_MS` per round. */
const MAX_ROUNDS = 100;
const PAUSE_MS = 10;
/** How many dead takers deep a takeover clears markers. */
const MAX_DEPTH = 8;

/**
 * Take `lockPath` for this process. The file names its owner (pid, host and the process's start
 * identity); it is created whole (written aside, then hard-linked into place, which fails if it
 * exists), so a reader never sees half a lock. A lock whose process no longer runs on this host is
 * taken over, by one process at a time (see {@link displace}).
 */
export async function acquireFileLock(lockPath: string, io?: LockIo): Promise<() => Promise<void>> {
  const world = io ?? (await nodeLockIo());
  const me = await world.newOwner();
  let last: LockOwner | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (await world.createWhole(lockPath, JSON.stringify(me))) {
      world.holding(me.token, true);
      return () => release(lockPath, me, world);
    }
    const found = await world.read(lockPath);
    if (found.kind === 'absent') continue;
    if (found.kind === 'owner') {
      const state = await world.holderState(found.owner);
      if (state !== 'gone') throw lockedError(lockPath, found.owner, state === 'here');
      last = found.owner;
    }
    const taker = await displace(lockPath, lockPath, found, world);
    if (taker) {
      last = taker;
      await world.pause(PAUSE_MS);
    }
  }
  throw lockedError(lockPath, last, false);
}

async function release(lockPath: string, me: LockOwner, io: LockIo): Promise<void> {
  io.holding(me.token, false);
  const now = await io.read(lockPath);
  if (now.kind === 'owner' && now.owner.token === me.token) await io.remove(lockPath);
}

/**
 * Remove `file`, found to be `found` (a lock whose owner is gone, or not a lock), if it still is, so
 * that the caller can create its own in its place.
 *
 * Reading and then removing is not atomic: a process that read the dead lock, paused, and removed it
 * after another had already put a fresh one there would remove that fresh one, and both would hold
 * the lock. So only one process may remove a given file: the one that creates the marker named after
 * it, `<lock>.takeover-<id>`, exclusively (created whole, like the lock). It reads the file again
 * under the marker and removes it only if it is still `found`. Nothing else removes a file that is
 * not its own, so the file cannot change between that reading and the removal; and once it is gone it
 * never comes back (ids are the owner's random token, or the inode and times of a file that is not a
 * lock), so a late process that makes the marker again finds something else and removes nothing.
 * The marker guards only that reading and removal: once the file is gone, creating the lock is
 * exclusive by itself, so the marker goes at once and need not wait for the new lock.
 *
 * A marker's creator that is still running is waited for (its owner is returned; one that hangs,
 * say stopped with SIGSTOP, ends the wait in `CheckpointLockedError` after MAX_ROUNDS). One that died
 * holding it leaves the marker, which names it: the marker is then removed by the same rule, under
 * a marker named after that creator, and so on for a creator of that one that died too. What is
 * left is a marker whose creator died after removing its file but before removing the marker, a
 * small file that nobody needs again. The protocol is exact as long as the judgement that a process
 * is gone is right (the same host name means the same machine and pid namespace) and the file
 * system's link and unlink are atomic (a local file system; not every network file system).
 */
async function displace(
  lockPath: string,
  file: string,
  found: LockFile & { id: string },
  io: LockIo,
  depth = 0,
): Promise<LockOwner | undefined> {
  const marker = `${lockPath}.takeover-${found.id}`;
  if (await io.createWhole(marker, JSON.stringify(await io.newOwner()))) {
    try {
      const now = await io.read(file);
      if (now.kind !== 'absent' && now.id === found.id) await io.remove(file);
    } finally {
      await io.remove(marker);
    }
    return undefined;
  }
  const taker = await io.read(marker);
  if (taker.kind === 'absent') return undefined;
  if (taker.kind === 'owner' && (await io.holderState(taker.owner)) !== 'gone') return taker.owner;
  // Markers made by the protocol name files older than themselves, so they form no cycle; files put
  // there by hand might, and are left to the caller's rounds (then to the error) rather than followed.
  if (depth >= MAX_DEPTH) return taker.kind === 'owner' ? taker.owner : undefined;
  await displace(lockPath, marker, taker, io, depth + 1);
  return undefined;
}

function lockedError(lockPath: string, holder: LockOwner | undefined, here: boolean): CheckpointLockedError {
  const who = here
    ? 'another watcher in this process'
    : `process ${holder?.pid ?? '?'} on ${holder?.host ?? 'an unknown host'} (since ${holder?.at ?? '?'})`;
  return new CheckpointLockedError(
    `The checkpoint is in use by ${who} (lock file ${lockPath}). Two watchers on one checkpoint would deliver every event twice: ` +
      'stop the other watcher, or give this one its own checkpoint. If no watcher is running (for example it ' +
      'ran on another host that is gone), delete the lock file.',
    holder?.pid,
  );
}
