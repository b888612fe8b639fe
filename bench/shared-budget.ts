/**
 * Case 2, shared budget: the job of case 1 split over 4 client processes (150 calls and 4 lanes
 * each, so 16 in flight in all) sharing one key through a private redis-server. As a contrast,
 * the same 4 processes each with its own in-process budget (no Redis).
 */
import { floorMs, idealMs, runBudgetJob, type BudgetOutcome } from './lib/budget-job.js';
import { startRedis } from './lib/children.js';
import { startSandbox } from './lib/sandbox.js';
import { fmt, type CaseResult } from './lib/stats.js';
import { describe, SETTINGS } from './rate-budget.js';

const PROCESSES = 4;
const TARGET = 1.03;

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  const redis = await startRedis();
  try {
    const shared = await runBudgetJob(sandbox, 'sdk', SETTINGS, {
      processes: PROCESSES,
      redisPort: redis.port,
      label: 'sdk+redis',
    });
    const alone = await runBudgetJob(sandbox, 'sdk', SETTINGS, { processes: PROCESSES, label: 'sdk, no redis' });
    const s = SETTINGS;
    const outcomes: BudgetOutcome[] = [shared, alone];
    return {
      id: 'shared-budget',
      title: '2. Shared budget (4 processes)',
      setup: `the job of case 1 over ${PROCESSES} processes (${s.calls / PROCESSES} calls, ${s.concurrency / PROCESSES} in flight each), one key, ${s.limit} per ${s.windowMs / 1000} s; ideal ${fmt.ms(idealMs(s))}, floor ${fmt.ms(floorMs(s))}; wall from "go" to the last process done`,
      rows: [
        {
          variant: 'SDK, budget shared through Redis',
          result: describe(shared),
          target: `≤ ${TARGET.toFixed(2)}× ideal, 0 × 429`,
          met: shared.ratio <= TARGET && shared.tooMany === 0 && shared.failures === 0,
        },
        { variant: 'SDK, each process on its own (no Redis)', result: describe(alone) },
      ],
      data: { settings: s, processes: PROCESSES, idealMs: idealMs(s), floorMs: floorMs(s), outcomes },
    };
  } finally {
    await redis.stop();
    await sandbox.close();
  }
}
