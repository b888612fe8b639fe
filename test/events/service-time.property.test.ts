/**
 * The service's time drawn per answer: each run picks, for the `Date` header and for the summary's
 * `generated_at`, a mix of right, wrong (unusable, malformed, a year ahead, or hours to days off),
 * missing and alternating values, and a seed that draws each answer's value from it. Whatever the
 * mix, the watcher delivers every change in the sandbox's ground-truth log, never resets a history
 * that did not go back (so nothing comes twice), and stays within 1.5 x the calls of a clean run.
 */
import { fastCheckRuns } from '../helpers/fast-check-runs.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type Watcher } from '../../src/events/index.js';
import { coverage } from './coverage.js';
import { httpDate, isoTime, serviceTimeProxy, YEAR, type TimedAnswer, type TimeRewrite } from './service-time-proxy.js';
import { startSimEnv, type SimEnv } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RUN = 2 * DAY;
const OPTIONS = { startFrom: 'now', minInterval: 60_000, maxInterval: 600_000, maxLag: HOUR } as const;
const SANDBOX = { now: '2026-11-25T00:00:00Z', visitsPerWeek: 30 } as const;

/** How one source tells the time over a run. */
type Mode = 'right' | 'missing' | 'unusable' | 'malformed' | 'alternating' | 'mixed';
const MODES: readonly Mode[] = ['right', 'missing', 'unusable', 'malformed', 'alternating', 'mixed'];

/** A small seeded generator (mulberry32): each answer's draw, reproducible from the run's seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The value a source gives on one answer: a time (to write in its format), a raw string, or null (left out). */
function draw(mode: Mode, at: number, nth: number, next: () => number): number | string | null {
  const unusable = ['9999-12-31T23:59:59Z', '1970-01-01T00:00:00Z'];
  switch (mode) {
    case 'right':
      return at;
    case 'missing':
      return null;
    case 'unusable':
      return unusable[nth % 2] as string;
    case 'malformed':
      return '1';
    case 'alternating':
      return nth % 2 === 0 ? at : at + YEAR;
    case 'mixed': {
      const r = next();
      if (r < 0.6) return at;
      if (r < 0.7) return null;
      if (r < 0.8) return unusable[Math.floor(next() * 2)] as string;
      // A wrong time hours to days off, different on every answer: no two of them agree.
      return at + (next() < 0.5 ? -1 : 1) * Math.floor(HOUR + next() * 3 * DAY);
    }
  }
}

function rewriteOf(dateMode: Mode, reportedMode: Mode, seed: number): (answer: TimedAnswer) => TimeRewrite {
  const next = random(seed);
  return ({ index, summary, at }) => {
    const date = draw(dateMode, at, index, next);
    const change: TimeRewrite = {
      date:
        typeof date === 'number'
          ? httpDate(date)
          : date === null
            ? null
            : /^\d{4}-/.test(date)
              ? httpDate(Date.parse(date))
              : date,
    };
    if (summary !== undefined) {
      const reported = draw(reportedMode, at, summary, next);
      // The summary's schema requires generated_at: a missing one is an empty string.
      change.generatedAt = typeof reported === 'number' ? isoTime(reported) : (reported ?? '');
    }
    return change;
  };
}

interface Run {
  events: PartnerEvent[];
  watcher: Watcher;
  calls: number;
  start: number;
}

async function run(env: SimEnv, rewrite: (answer: TimedAnswer) => TimeRewrite): Promise<Run> {
  env.sandbox.populate(env.key, { locations: 10, reservationsPerLocation: 4 });
  const start = env.sandbox.clock.now().getTime();
  const proxy = serviceTimeProxy(env, rewrite);
  const watcher = watchEvents(env.client({ fetch: proxy, logger: {} }), { checkpoint: memoryCheckpoint(), ...OPTIONS });
  const events: PartnerEvent[] = [];
  for await (const event of watcher) {
    events.push(event);
    if (env.clock.now() >= start + RUN) break;
  }
  return { events, watcher, calls: proxy.calls, start };
}

describe("the service's time drawn per answer", () => {
  let control: Run;
  let controlEnv: SimEnv;
  beforeAll(async () => {
    controlEnv = await startSimEnv('msw', SANDBOX);
    control = await run(controlEnv, () => ({}));
  }, 60_000);
  afterAll(() => controlEnv?.close());

  it('every change arrives, none twice, within 1.5 x the calls of a clean run, whatever mix of right, wrong, missing and alternating times', {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MODES),
        fc.constantFrom(...MODES),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        async (dateMode, reportedMode, seed) => {
          const env = await startSimEnv('msw', SANDBOX);
          try {
            const result = await run(env, rewriteOf(dateMode, reportedMode, seed));
            const changes = env.sandbox.inspect.changes(env.key).filter((c) => Date.parse(c.at) > result.start);
            const report = coverage(
              changes,
              result.events,
              env.sandbox.clock.now().getTime() - OPTIONS.maxLag - OPTIONS.maxInterval,
            );
            expect(changes.filter((c) => c.type === 'video.published').length).toBeGreaterThan(0);
            // No history went back here: a true reset would allow one duplicate each.
            expect({
              missing: report.missing,
              duplicates: report.duplicates,
              resets: result.watcher.stats.historyResets,
            }).toEqual({ missing: [], duplicates: 0, resets: 0 });
            expect(result.calls).toBeLessThanOrEqual(1.5 * control.calls);
          } finally {
            await env.close();
          }
        },
      ),
      fastCheckRuns(10),
    );
  });
});
