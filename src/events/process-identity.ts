import { currentPid, nodeFs, processAlive } from './node-modules.js';

/**
 * What tells one process from a later one with the same pid (a container restarted with its
 * checkpoint on a volume is pid 1 again). On Linux the kernel's boot id and the process's start time
 * in clock ticks since boot (`/proc/<pid>/stat`, field 22), exact and readable for any pid; elsewhere
 * only our own start, from the wall clock less our uptime, good to a moment.
 */
export interface ProcessIdentity {
  boot?: string;
  start?: string;
  started?: number;
}

/** How far apart two readings of one process's `started` can be (clock adjustments between them). */
const STARTED_TOLERANCE_MS = 2_000;

let own: Promise<ProcessIdentity> | undefined;

/** This process's identity (read once). */
export function ownIdentity(): Promise<ProcessIdentity> {
  return (own ??= readOwnIdentity());
}

async function readOwnIdentity(): Promise<ProcessIdentity> {
  const pid = currentPid();
  const [boot, start] = pid === undefined ? [] : await Promise.all([bootId(), startTicks(pid)]);
  if (boot !== undefined && start !== undefined) return { boot, start };
  const proc = (globalThis as { process?: { uptime?(): number } }).process;
  return typeof proc?.uptime === 'function' ? { started: Math.round(Date.now() - proc.uptime() * 1000) } : {};
}

/**
 * Whether the process a lock file names (`pid` with the identity recorded beside it) still runs on
 * this host. Without a recorded identity (a lock written by an older version) a live pid counts as
 * that process, except our own pid: a lock naming it that this process does not hold is a previous
 * incarnation's. An identity this machine cannot check also leaves a live pid counted as running.
 */
export async function stillRunning(pid: number, recorded: ProcessIdentity): Promise<boolean> {
  const self = await ownIdentity();
  if (pid === currentPid()) {
    if (recorded.boot !== undefined && self.boot !== undefined)
      return recorded.boot === self.boot && recorded.start === self.start;
    if (recorded.started !== undefined && self.started !== undefined)
      return Math.abs(recorded.started - self.started) <= STARTED_TOLERANCE_MS;
    return false;
  }
  if (!processAlive(pid)) return false;
  if (recorded.boot === undefined || recorded.start === undefined || self.boot === undefined) return true;
  // Another boot id: the machine has restarted since, so every process of that time is gone.
  if (recorded.boot !== self.boot) return false;
  const start = await startTicks(pid);
  return start === undefined || start === recorded.start;
}

async function bootId(): Promise<string | undefined> {
  const text = await readProc('/proc/sys/kernel/random/boot_id');
  return text?.trim() || undefined;
}

/** Field 22 of `/proc/<pid>/stat`; counted after the command name, which is in parentheses and may hold spaces. */
async function startTicks(pid: number): Promise<string | undefined> {
  const text = await readProc(`/proc/${pid}/stat`);
  const fields = text?.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields?.[22 - 3];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

async function readProc(path: string): Promise<string | undefined> {
  const proc = (globalThis as { process?: { platform?: string } }).process;
  if (proc?.platform !== 'linux') return undefined;
  try {
    return await (await nodeFs()).readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
