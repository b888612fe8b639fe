/**
 * The crash test: a watcher in a child process, over a simulated month at 200 stores, killed with
 * SIGKILL at 20 random moments and started again on the same fileCheckpoint. The events its loop
 * recorded must cover every change in the sandbox's ground-truth change log, with at most one
 * duplicate per kill. The sandbox runs here, on a real port, so it outlives each child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { coverage, type DeliveredEvent } from './coverage.js';

const DAY = 86_400_000;
const KILLS = 20;
// Longer waits than the defaults keep a simulated month within about a minute of real time.
const OPTIONS = { minInterval: 60 * 60_000, maxInterval: 4 * 3_600_000, maxLag: 24 * 3_600_000 };

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

describe('crash test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crp-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a watcher SIGKILLed 20 times over a simulated month at 200 stores misses no change and repeats at most one event per kill', async () => {
    const sandbox = createSandbox({ seed: 99, rateLimitClock: 'simulated' });
    const key = sandbox.issueKey();
    sandbox.populate(key, { locations: 200, reservationsPerLocation: 3 });
    const server = await sandbox.listen(0);
    const start = sandbox.clock.now().getTime();
    const end = start + 30 * DAY;
    const stopAt = end + OPTIONS.maxLag + 3_600_000;
    const checkpoint = join(dir, 'checkpoint.json');
    const record = join(dir, 'events.jsonl');
    const rand = random(Number(process.env.CRASH_SEED ?? 7));
    const killAt = Array.from({ length: KILLS }, () => start + rand() * 30 * DAY).sort((a, b) => a - b);

    const run = (): { child: ChildProcess; exited: Promise<number | null> } => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/events/fixtures/crash-child.ts'], {
        env: {
          ...process.env,
          PARTNER_API_BASE_URL: server.url,
          PARTNER_API_KEY: key,
          CHECKPOINT: checkpoint,
          RECORD: record,
          STOP_AT: String(stopAt),
          WATCH_OPTIONS: JSON.stringify(OPTIONS),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return { child, exited };
    };

    let kills = 0;
    try {
      for (;;) {
        const { child, exited } = run();
        let done = false;
        void exited.then(() => (done = true));
        const next = killAt[kills];
        while (!done && (next === undefined || sandbox.clock.now().getTime() < next))
          await new Promise((r) => setTimeout(r, 5));
        if (done) {
          expect(await exited).toBe(0);
          break;
        }
        // A random moment: somewhere in the next few milliseconds of whatever the child is doing.
        await new Promise((r) => setTimeout(r, rand() * 30));
        child.kill('SIGKILL');
        await exited;
        kills++;
      }
    } finally {
      await server.close();
    }
    expect(kills).toBe(KILLS);

    const lines = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    const events = lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as DeliveredEvent];
      } catch {
        return []; // cut short by a kill while being written: that loop body never ended
      }
    });
    const changes = sandbox.inspect.changes(key).filter((c) => Date.parse(c.at) > start);
    const report = coverage(changes, events, end);
    console.log(
      `crash test: ${report.changes} changes, ${events.length} events recorded, ${kills} kills, ${report.duplicates} duplicates, ${report.collapsed} changes seen only in a later state`,
    );
    expect(report.changes).toBeGreaterThan(5_000);
    expect(report.missing).toEqual([]);
    expect(report.duplicates).toBeLessThanOrEqual(kills);
    expect(existsSync(`${checkpoint}.lock`)).toBe(false);
  }, 240_000);
});
