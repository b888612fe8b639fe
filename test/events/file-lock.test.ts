/**
 * Who the lock counts as gone: a dead pid, a pid that runs again but as another process (a container
 * restarted, pid 1 again), a machine restarted since; and who it still refuses. Also what it does with
 * a lock path that holds something other than a lock file.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointLockedError } from '../../src/index.js';
import { acquireFileLock } from '../../src/events/file-lock.js';
import { ownIdentity } from '../../src/events/process-identity.js';

const dir = mkdtempSync(join(tmpdir(), 'crp-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `${++n}.lock`);
const linux = process.platform === 'linux';

function lockFile(fields: Record<string, unknown>): string {
  const path = fresh();
  writeFileSync(
    path,
    JSON.stringify({ host: hostname(), token: `old${n}`, at: '2026-01-01T00:00:00.000Z', ...fields }),
  );
  return path;
}

/** Field 22 of /proc/<pid>/stat: when that process started, in clock ticks since boot. */
function startTicks(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] as string;
}

async function takesOver(path: string): Promise<void> {
  const release = await acquireFileLock(path);
  expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, ...(await ownIdentity()) });
  await release();
  expect(existsSync(path)).toBe(false);
  expect(readdirSync(dir).filter((f) => f.includes('takeover') || f.endsWith('.tmp'))).toEqual([]);
}

async function refused(path: string, pid: number | undefined, who: RegExp): Promise<void> {
  const error = await acquireFileLock(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CheckpointLockedError);
  expect(error).toMatchObject({ holderPid: pid, message: expect.stringMatching(who) });
}

describe('file lock: whose lock is taken over', () => {
  it('records the boot id and start time of the process beside its pid (Linux), or when it started', async () => {
    const release = await acquireFileLock(fresh());
    const written = JSON.parse(readFileSync(join(dir, `${n}.lock`), 'utf8'));
    if (linux) {
      expect(written).toMatchObject({
        pid: process.pid,
        boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
        start: startTicks(process.pid),
      });
    } else {
      expect(written.started).toBeCloseTo(Date.now() - process.uptime() * 1000, -4);
    }
    await release();
  });

  it('takes over a lock naming our own pid that another incarnation took (a restarted container is pid 1 again)', async () => {
    const self = await ownIdentity();
    const earlier = linux
      ? { boot: self.boot, start: String(Number(self.start) - 1) }
      : { started: (self.started ?? 0) - 60_000 };
    await takesOver(lockFile({ pid: process.pid, ...earlier }));
    // Written by a version without the identity: our pid, not held here, is an earlier process's.
    await takesOver(lockFile({ pid: process.pid }));
  });

  it.runIf(linux)(
    'takes over a lock of pid 1 when pid 1 is another process than the one recorded, or the machine has restarted since',
    async () => {
      const { boot } = await ownIdentity();
      await takesOver(lockFile({ pid: 1, boot, start: String(Number(startTicks(1)) + 1) }));
      await takesOver(lockFile({ pid: 1, boot: '00000000-0000-0000-0000-000000000000', start: startTicks(1) }));
    },
  );

  it('takes over a lock of a process that has exited', async () => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    await takesOver(lockFile({ pid, ...(await ownIdentity()) }));
    await takesOver(lockFile({ pid }));
  });

  it('refuses a lock of a running process: as recorded, with no identity (an older version), from another host, or another watcher of this process', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    try {
      const pid = child.pid as number;
      const { boot } = await ownIdentity();
      if (linux) {
        await refused(lockFile({ pid, boot, start: startTicks(pid) }), pid, new RegExp(`process ${pid} on `));
        await refused(lockFile({ pid: 1, boot, start: startTicks(1) }), 1, /process 1 on /);
        await takesOver(lockFile({ pid, boot, start: String(Number(startTicks(pid)) - 5) }));
      }
      await refused(lockFile({ pid }), pid, new RegExp(`process ${pid} on `));
      await refused(lockFile({ pid: 1 }), 1, /process 1 on /);
      await refused(lockFile({ pid: 999_999_999, host: 'elsewhere' }), 999_999_999, /on elsewhere/);
    } finally {
      child.kill('SIGKILL');
    }
    // Our pid and our own identity, not held by this thread: a watcher in a worker thread of this process.
    await refused(
      lockFile({ pid: process.pid, ...(await ownIdentity()) }),
      process.pid,
      new RegExp(`process ${process.pid} on `),
    );
    const path = fresh();
    const release = await acquireFileLock(path);
    await refused(path, process.pid, /another watcher in this process/);
    await release();
  });
});

describe('file lock: a lock path holding something else', () => {
  it('takes the place of garbage, an oversized file, a FIFO, and a symbolic link (not what it points to)', async () => {
    for (const text of [
      '{"pid": 1, "host": "half',
      '',
      JSON.stringify({ pid: -1, host: hostname(), token: 'negative' }),
      ' '.repeat(10_000),
    ]) {
      const path = fresh();
      writeFileSync(path, text);
      await takesOver(path);
    }
    if (process.platform !== 'win32') {
      const fifo = fresh();
      spawnSync('mkfifo', [fifo]);
      await takesOver(fifo);
      const target = join(dir, 'target.json');
      writeFileSync(target, JSON.stringify({ pid: 1, host: hostname(), token: 'linked' }));
      const link = fresh();
      symlinkSync(target, link);
      await takesOver(link);
      expect(readFileSync(target, 'utf8')).toContain('linked');
      rmSync(target);
    }
  });

  it('judges a lock whose token is not a plain word by its pid, and names no file after that token', async () => {
    const outside = '../../../escape';
    await refused(lockFile({ pid: 1, token: outside }), 1, /process 1 on /);
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    await takesOver(lockFile({ pid, token: outside }));
    expect(existsSync(join(dir, '..', '..', 'escape'))).toBe(false);
  });

  it('says what to do when the lock path is a directory', async () => {
    const path = fresh();
    mkdirSync(path);
    const error = await acquireFileLock(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointLockedError);
    expect(error).toMatchObject({
      holderPid: undefined,
      message: `${path} is a directory, where the checkpoint's lock file belongs: remove it, then start the watcher again.`,
    });
    rmSync(path, { recursive: true });
  });
});

describe('file lock: markers put there by hand', () => {
  it('gives up with CheckpointLockedError on markers that name each other in a circle, instead of following them forever', async () => {
    const path = lockFile({ pid: spawnSync(process.execPath, ['-e', '']).pid, token: 'deadholder' });
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(`${path}.takeover-deadholder`, JSON.stringify({ pid, host: hostname(), token: 'ringa' }));
    writeFileSync(`${path}.takeover-ringa`, JSON.stringify({ pid, host: hostname(), token: 'ringb' }));
    writeFileSync(`${path}.takeover-ringb`, JSON.stringify({ pid, host: hostname(), token: 'ringa' }));
    const error = await acquireFileLock(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointLockedError);
    for (const f of readdirSync(dir).filter((f) => f.startsWith(`${n}.lock.takeover-`))) rmSync(join(dir, f));
  });
});
