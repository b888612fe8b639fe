/**
 * Case `events`: `watchEvents()` at 10,000 stores over a simulated week of bookings and
 * videos (the sandbox's simulation, 3 bookings a store a week), `budgetShare` 0.5, default options,
 * a fileCheckpoint. The watcher starts from now (the history populated before is learnt silently);
 * every change the sandbox logs during the week is matched to the first event that shows it.
 * In-process: the client's fetch is the sandbox's handler and its clock the sandbox's, so a
 * simulated week takes minutes. Reports calls per simulated hour, the share of the key's budget
 * used (on average and in the busiest minute), detection lag p50/p99 in simulated time, the
 * checkpoint's size on disk and the process's peak RSS (the sandbox included).
 *
 *   npm run bench -- events          BENCH_EVENTS_STORES=1000 BENCH_EVENTS_DAYS=2 for a quick look
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { coverage, type DeliveredEvent } from '../test/events/coverage.js';
import { loadEvents, loadSdk, loadTesting, tmpDir } from './lib/paths.js';
import { MINUTE, delivered, simulatedClient } from './lib/simulated-client.js';
import { fmt, percentile, type CaseResult } from './lib/stats.js';

const STORES = Number(process.env.BENCH_EVENTS_STORES ?? 10_000);
const DAYS = Number(process.env.BENCH_EVENTS_DAYS ?? 7);
const BUDGET_SHARE = 0.5;
const MAX_LAG = 15 * 60_000;
const LIMIT = 600;

export async function run(): Promise<CaseResult> {
  const { PartnerClient } = await loadSdk();
  const { fileCheckpoint, watchEvents } = await loadEvents();
  const { createSandbox } = await loadTesting();
  const sandbox = createSandbox({ seed: 13, rateLimitClock: 'simulated' });
  const key = sandbox.issueKey();
  sandbox.populate(key, { locations: STORES, reservationsPerLocation: 2 });
  const { client, clock, perMinute } = simulatedClient(PartnerClient, sandbox, key);
  const dir = mkdtempSync(join(tmpDir('events'), 'run-'));
  const path = join(dir, 'checkpoint.json');
  const started = performance.now();
  const start = clock.now();
  const end = start + DAYS * 24 * 60 * MINUTE;
  const events: DeliveredEvent[] = [];
  const watcher = watchEvents(client, {
    checkpoint: fileCheckpoint(path),
    startFrom: 'now',
    budgetShare: BUDGET_SHARE,
    maxLag: MAX_LAG,
  });
  // startFrom 'now' learns the existing state first (every store's videos: 10,000 calls at this size),
  // and what changes while it does becomes part of that state: lag is measured from the end of it.
  let measuredFrom: number | undefined;
  try {
    for await (const event of watcher) {
      measuredFrom ??= Date.parse(watcher.stats.lastReconciledAt ?? event.created_at);
      const d = delivered(event);
      if (d) events.push(d);
      if (clock.now() >= end) break;
    }
  } finally {
    await client.close();
  }
  const elapsedMs = performance.now() - started;
  const stateBytes = statSync(path).size;
  rmSync(dir, { recursive: true, force: true });

  // Changes made early enough that a full reconciliation (maxLag) had time to find them.
  const from = measuredFrom ?? start;
  const changes = sandbox.inspect.changes(key).filter((c) => Date.parse(c.at) > from);
  const report = coverage(changes, events, end - MAX_LAG);
  if (process.env.BENCH_EVENTS_DEBUG) for (const c of report.missing) console.error('missing', JSON.stringify(c));
  const hours = (end - start) / (60 * MINUTE);
  const syncMinutes = (from - start) / MINUTE;
  const calls = watcher.stats.calls;
  const budgetPerHour = LIMIT * 60;
  const busiest = Math.max(...perMinute.values());
  const p50 = percentile(report.lagsMs, 50);
  const p99 = percentile(report.lagsMs, 99);
  const rss = process.resourceUsage().maxRSS * 1024;
  const min = (ms: number) => `${(ms / MINUTE).toFixed(2)} min`;
  return {
    id: 'events',
    title: 'events.watch',
    setup: `${fmt.int(STORES)} stores, ${DAYS} simulated days (${fmt.int(report.changes)} changes after the first sync, which took ${syncMinutes.toFixed(0)} simulated min), budgetShare ${BUDGET_SHARE}, maxLag 15 min, default intervals, fileCheckpoint; in-process sandbox on simulated time; ${fmt.ms(elapsedMs)} real`,
    rows: [
      {
        variant: 'changes delivered',
        result: `${fmt.int(report.changes - report.missing.length)} of ${fmt.int(report.changes)} (${report.collapsed} seen only in a later state), ${fmt.int(events.length)} events, ${report.duplicates} duplicates`,
        target: 'every change',
        met: report.missing.length === 0,
      },
      {
        variant: 'calls per simulated hour',
        result: `${fmt.int(calls / hours)} (${fmt.int(calls)} in all; ${fmt.int(watcher.stats.reconciliations)} full reconciliations)`,
      },
      {
        variant: 'share of the key budget',
        result: `${((calls / hours / budgetPerHour) * 100).toFixed(1)} % on average, ${((busiest / LIMIT) * 100).toFixed(0)} % in the busiest minute`,
        target: `≤ ${BUDGET_SHARE * 100} % in any minute`,
        met: busiest <= LIMIT * BUDGET_SHARE,
      },
      { variant: 'detection lag p50 (simulated)', result: min(p50), target: '≤ 2 min', met: p50 <= 2 * MINUTE },
      {
        variant: 'detection lag p99 (simulated)',
        result: `${min(p99)} (max ${min(Math.max(...report.lagsMs))})`,
        target: '≤ maxLag (15 min)',
        met: p99 <= MAX_LAG,
      },
      {
        variant: 'checkpoint on disk',
        result: `${fmt.kb(stateBytes)} (${fmt.int(watcher.stats.tracked.reservations)} bookings, ${fmt.int(watcher.stats.tracked.stores)} stores tracked)`,
      },
      { variant: 'peak RSS (process, sandbox included)', result: fmt.mb(rss) },
    ],
    data: {
      stores: STORES,
      days: DAYS,
      syncMinutes,
      changes: report.changes,
      missing: report.missing.length,
      collapsed: report.collapsed,
      events: events.length,
      duplicates: report.duplicates,
      calls,
      callsPerHour: calls / hours,
      busiestMinute: busiest,
      p50,
      p99,
      stateBytes,
      rss,
      stats: watcher.stats,
      elapsedMs,
    },
  };
}
