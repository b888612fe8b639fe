import { CheckpointLockedError } from '../index.js';
import { realClock } from '../core/clock.js';
import type { HolderState, LockFile, LockIo, LockOwner } from './file-lock.js';
import { currentPid, nodeFs, nodeOs } from './node-modules.js';
import { ownIdentity, stillRunning } from './process-identity.js';

/** A lock file is a line of JSON; anything larger is not one (and is not read whole). */
const MAX_LOCK_BYTES = 4096;
const TOKEN = /^[0-9a-z]{1,64}$/;

/**
 * Tokens of the locks this process holds, shared by every copy of the SDK loaded in it (its ES module
 * and CommonJS builds, two versions in node_modules), which would otherwise count each other's locks
 * as a previous incarnation's.
 */
const heldHere: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[
  Symbol.for('@crp/partner-sdk/file-locks')
] ??= new Set());

/** The lock's world on Node: the file system, this host, and its processes. */
export async function nodeLockIo(): Promise<LockIo> {
  const fs = await nodeFs();
  const host = (await nodeOs()).hostname();
  return {
    async newOwner() {
      const token = globalThis.crypto.randomUUID().replaceAll('-', '');
      return { pid: currentPid(), host, token, at: new Date().toISOString(), ...(await ownIdentity()) };
    },
    async createWhole(path, text) {
      const aside = `${path}.${globalThis.crypto.randomUUID()}.tmp`;
      await fs.writeFile(aside, text, { flag: 'wx' });
      try {
        await fs.link(aside, path);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'EEXIST') return false;
        throw error;
      } finally {
        await fs.rm(aside, { force: true });
      }
    },
    read: (path) => readLockFile(fs, path),
    async remove(path) {
      await fs.unlink(path).catch((error: { code?: string }) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    async holderState(owner): Promise<HolderState> {
      if (heldHere.has(owner.token)) return 'here';
      if (owner.host !== host || owner.pid === undefined) return 'running';
      return (await stillRunning(owner.pid, owner)) ? 'running' : 'gone';
    },
    holding(token, held) {
      if (held) heldHere.add(token);
      else heldHere.delete(token);
    },
    pause: (ms) => realClock.sleep(ms),
  };
}

/**
 * Read what is at `path` without trusting it: a symbolic link is not followed, a FIFO does not block,
 * only a small regular file holding an owner record with a plain token counts as a lock file.
 */
async function readLockFile(fs: typeof import('node:fs/promises'), path: string): Promise<LockFile> {
  const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await fs.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code !== 'ELOOP' && code !== 'EISDIR') throw error;
    return unreadable(fs, path);
  }
  try {
    const stat = await handle.stat();
    const id = fileId(stat);
    if (stat.isDirectory()) {
      throw new CheckpointLockedError(
        `${path} is a directory, where the checkpoint's lock file belongs: remove it, then start the watcher again.`,
      );
    }
    if (!stat.isFile() || stat.size > MAX_LOCK_BYTES) return { kind: 'unreadable', id };
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(MAX_LOCK_BYTES), 0, MAX_LOCK_BYTES, 0);
    const owner = parseOwner(buffer.toString('utf8', 0, bytesRead));
    // The token names a marker file, so only a plain one is used as the id.
    return owner
      ? { kind: 'owner', owner, id: TOKEN.test(owner.token) ? owner.token : id }
      : { kind: 'unreadable', id };
  } finally {
    await handle.close();
  }
}

async function unreadable(fs: typeof import('node:fs/promises'), path: string): Promise<LockFile> {
  try {
    const stat = await fs.lstat(path);
    return { kind: 'unreadable', id: fileId(stat) };
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
}

/** Names one file (not a path) for as long as it exists: what a marker is named after when the file has no plain token. */
function fileId(stat: { dev: number; ino: number; mtimeMs: number; size: number }): string {
  return `i${stat.dev}-${stat.ino}-${stat.mtimeMs}-${stat.size}`;
}

function parseOwner(text: string): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = value as Partial<Record<keyof LockOwner, unknown>> | null;
  if (typeof o !== 'object' || o === null || typeof o.host !== 'string' || typeof o.token !== 'string')
    return undefined;
  if (o.pid !== undefined && !(Number.isSafeInteger(o.pid) && (o.pid as number) > 0)) return undefined;
  const owner: LockOwner = {
    pid: o.pid as number | undefined,
    host: o.host,
    token: o.token,
    at: typeof o.at === 'string' ? o.at : '?',
  };
  if (typeof o.boot === 'string') owner.boot = o.boot;
  if (typeof o.start === 'string') owner.start = o.start;
  if (typeof o.started === 'number') owner.started = o.started;
  return owner;
}
