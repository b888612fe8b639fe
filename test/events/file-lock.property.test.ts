/**
 * The lock's takeover protocol over every interleaving fast-check's scheduler picks: contenders
 * (simulated processes with a file system in memory) take a lock left by a dead process, some of them
 * crashing before any of their steps, some dying while holding the lock or releasing it. Whenever one
 * gets the lock, no other running contender holds it; afterwards a newcomer gets it unless a running
 * contender holds it (a crashed taker blocks nobody).
 * Runs: FC_NUM_RUNS (default 300); a failure prints its seed and the interleaving.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckpointLockedError } from '../../src/index.js';
import { acquireFileLock, type LockFile, type LockIo, type LockOwner } from '../../src/events/file-lock.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';

const LOCK = '/c.json.lock';
const never = new Promise<never>(() => {});

interface Contender {
  pid: number;
  /** Dies just before its n-th step (counted from 1). */
  crashAt: number | undefined;
  release: boolean;
  dieHolding: boolean;
}

interface Proc extends Contender {
  steps: number;
  dead: boolean;
  holds: boolean;
}

/** What is at the lock path at the start: a dead process's lock, maybe with the markers of takers that died too. */
const starts = [
  'dead',
  'dead, its taker died',
  "dead, its taker and that one's taker died",
  'garbage',
  'nothing',
] as const;

class World {
  files = new Map<string, { text: string; ino: number }>();
  private ino = 0;
  private tokens = 0;
  violations: string[] = [];
  procs = new Map<number, Proc>();

  constructor(private readonly s: fc.Scheduler) {}

  put(path: string, text: string): void {
    this.files.set(path, { text, ino: ++this.ino });
  }

  owner(pid: number): LockOwner {
    return { pid, host: 'h', token: `p${pid}x${++this.tokens}`, at: '' };
  }

  io(proc: Proc): LockIo {
    const step = async <T>(label: string, effect: () => T): Promise<T> => {
      await this.s.schedule(Promise.resolve(), `${proc.pid} ${label}`);
      if (proc.dead) return never;
      if (++proc.steps === proc.crashAt) {
        proc.dead = true;
        proc.holds = false;
        return never;
      }
      return effect();
    };
    return {
      newOwner: async () => this.owner(proc.pid),
      createWhole: (path, text) =>
        step(`create ${path}`, () => {
          if (this.files.has(path)) return false;
          this.put(path, text);
          return true;
        }),
      read: (path) => step(`read ${path}`, () => this.read(path)),
      remove: (path) => step(`remove ${path}`, () => void this.files.delete(path)),
      holderState: async (owner) => (this.procs.get(owner.pid ?? 0)?.dead === false ? 'running' : 'gone'),
      holding: () => {},
      pause: () => step('pause', () => undefined),
    };
  }

  private read(path: string): LockFile {
    const file = this.files.get(path);
    if (!file) return { kind: 'absent' };
    try {
      const owner = JSON.parse(file.text) as LockOwner;
      return { kind: 'owner', owner, id: owner.token };
    } catch {
      return { kind: 'unreadable', id: `i${file.ino}` };
    }
  }

  /** Take the lock as `proc`, checking at once that no other running contender holds it. */
  async contend(proc: Proc): Promise<'held' | 'refused'> {
    let release: () => Promise<void>;
    try {
      release = await acquireFileLock(LOCK, this.io(proc));
    } catch (error) {
      if (error instanceof CheckpointLockedError) return 'refused';
      throw error;
    }
    const others = [...this.procs.values()].filter((p) => p !== proc && p.holds && !p.dead).map((p) => p.pid);
    if (others.length > 0) this.violations.push(`${proc.pid} got the lock while ${others.join(', ')} held it`);
    const file = this.files.get(LOCK);
    const token = file ? (JSON.parse(file.text) as LockOwner).token : undefined;
    if (!token?.startsWith(`p${proc.pid}x`))
      this.violations.push(`${proc.pid} got the lock, but the lock file is ${file?.text}`);
    proc.holds = true;
    if (proc.dieHolding) {
      proc.dead = true;
      proc.holds = false;
    } else if (proc.release) {
      await release();
      proc.holds = false;
    }
    return 'held';
  }
}

const contenders = fc.uniqueArray(
  fc.record({
    pid: fc.integer({ min: 10, max: 99 }),
    crashAt: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    release: fc.boolean(),
    dieHolding: fc.boolean(),
  }),
  { minLength: 2, maxLength: 4, selector: (c) => c.pid },
);

describe('file lock takeover protocol, every interleaving', () => {
  it('one holder at a time; a taker that died blocks nobody', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.constantFrom(...starts), contenders, async (s, start, list: Contender[]) => {
        const world = new World(s);
        // Pids 1 to 3 are processes that have died.
        if (start === 'garbage') world.put(LOCK, '{"pid": 1, "ho');
        else if (start !== 'nothing') world.put(LOCK, JSON.stringify({ ...world.owner(1), token: 'dead1' }));
        if (start.includes('taker died'))
          world.put(`${LOCK}.takeover-dead1`, JSON.stringify({ ...world.owner(2), token: 'dead2' }));
        if (start.includes('taker and'))
          world.put(`${LOCK}.takeover-dead2`, JSON.stringify({ ...world.owner(3), token: 'dead3' }));

        for (const c of list) world.procs.set(c.pid, { ...c, steps: 0, dead: false, holds: false });
        const runs = [...world.procs.values()].map((proc) => world.contend(proc));
        await s.waitIdle();
        const finished = await Promise.all(runs.map((run) => Promise.race([run, Promise.resolve('crashed' as const)])));

        const newcomer: Proc = {
          pid: 100,
          crashAt: undefined,
          release: true,
          dieHolding: false,
          steps: 0,
          dead: false,
          holds: false,
        };
        world.procs.set(newcomer.pid, newcomer);
        const last = world.contend(newcomer);
        await s.waitIdle();
        const holder = [...world.procs.values()].find((p) => p.holds && !p.dead && p !== newcomer);
        expect(world.violations).toEqual([]);
        expect(await Promise.race([last, Promise.resolve('stuck' as const)]), `after ${finished.join(', ')}`).toBe(
          holder ? 'refused' : 'held',
        );
        if (list.every((c) => c.crashAt === undefined)) {
          expect([...world.files.keys()].filter((path) => path !== LOCK)).toEqual([]);
        }
      }),
      fastCheckRuns(300),
    );
  });
});
