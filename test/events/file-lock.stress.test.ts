/**
 * The lock's takeover raced by real processes: in each trial a lock left by a dead process is there,
 * and every contender is told to take it at once. Exactly one may hold it. Processes rather than
 * worker threads, so that the race is the file system's, between separate event loops.
 * Trials: LOCK_TRIALS (default 300, under ten seconds); contenders: LOCK_CONTENDERS (default 4).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const TRIALS = Number(process.env.LOCK_TRIALS ?? 300);
const CONTENDERS = Number(process.env.LOCK_CONTENDERS ?? 4);

interface Racer {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
}

function startRacer(): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/events/fixtures/lock-racer.ts'], { stdio: 'pipe' });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, next: async () => String((await lines.next()).value) };
}

/** A pid that no process has: one of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid;
}

describe('file lock takeover under a race', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crp-lock-race-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`of ${CONTENDERS} processes taking over a dead process's lock at once, exactly one holds it (${TRIALS} trials)`, {
    timeout: 60_000 + TRIALS * 200,
  }, async () => {
    const racers = Array.from({ length: CONTENDERS }, startRacer);
    try {
      const dead = deadPid();
      const doubles: number[] = [];
      const errors: string[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const lock = join(dir, `${trial}.lock`);
        writeFileSync(
          lock,
          JSON.stringify({ pid: dead, host: hostname(), token: `dead${trial}`, at: new Date().toISOString() }),
        );
        for (const racer of racers) racer.child.stdin.write(`go ${lock}\n`);
        const answers = await Promise.all(racers.map((racer) => racer.next()));
        errors.push(...answers.filter((a) => a.startsWith('error')));
        const holders = answers.filter((a) => a.startsWith('held')).length;
        if (holders !== 1) doubles.push(holders);
        for (const racer of racers) racer.child.stdin.write('release\n');
        await Promise.all(racers.map((racer) => racer.next()));
      }
      expect(errors).toEqual([]);
      // Nobody died halfway, so no marker or file written aside is left.
      expect(readdirSync(dir).filter((f) => !f.endsWith('.lock'))).toEqual([]);
      expect({ trials: TRIALS, notExactlyOne: doubles.length, holders: doubles }).toEqual({
        trials: TRIALS,
        notExactlyOne: 0,
        holders: [],
      });
    } finally {
      for (const racer of racers) racer.child.kill();
    }
  });
});
