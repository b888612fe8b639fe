/**
 * Case 1, rate budget: 600 calls at concurrency 16 against a key allowed 120 requests per
 * window, three ways. Wall time ÷ ideal (calls / limit × window) and the 429s the server sent.
 */
import { floorMs, idealMs, runBudgetJob, type BudgetOutcome, type BudgetSettings } from './lib/budget-job.js';
import { startSandbox } from './lib/sandbox.js';
import { fmt, type CaseResult } from './lib/stats.js';

export const SETTINGS: BudgetSettings = {
  calls: Number(process.env.BENCH_BUDGET_CALLS ?? 600),
  concurrency: 16,
  limit: Number(process.env.BENCH_BUDGET_LIMIT ?? 120),
  windowMs: Number(process.env.BENCH_BUDGET_WINDOW_MS ?? 5000),
};
const TARGET = 1.03;

export function describe(o: BudgetOutcome): string {
  const failed = o.failures > 0 ? ` · ${o.failures} calls FAILED` : '';
  return `${fmt.x(o.ratio)} ideal (${fmt.ms(o.wallMs)}) · ${o.tooMany} × 429 · ${o.requests} requests${failed}`;
}

export async function run(): Promise<CaseResult> {
  const sandbox = await startSandbox();
  try {
    const outcomes: BudgetOutcome[] = [];
    for (const way of ['sdk', 'ky', 'p-retry'] as const) outcomes.push(await runBudgetJob(sandbox, way, SETTINGS));
    const [sdk, kyOut, retry] = outcomes as [BudgetOutcome, BudgetOutcome, BudgetOutcome];
    const s = SETTINGS;
    return {
      id: 'rate-budget',
      title: '1. Rate budget',
      setup: `${s.calls} calls, concurrency ${s.concurrency}, key limit ${s.limit} per ${s.windowMs / 1000} s; ideal = ${s.calls}/${s.limit} × ${s.windowMs / 1000} s = ${fmt.ms(idealMs(s))} (a perfect client can finish at ${fmt.ms(floorMs(s))} = ${fmt.x(floorMs(s) / idealMs(s))})`,
      rows: [
        {
          variant: 'SDK',
          result: describe(sdk),
          target: `≤ ${TARGET.toFixed(2)}× ideal, 0 × 429`,
          met: sdk.ratio <= TARGET && sdk.tooMany === 0 && sdk.failures === 0,
        },
        { variant: 'ky, built-in retry (limit 10)', result: describe(kyOut) },
        { variant: 'fetch + p-retry, no limiter', result: describe(retry) },
      ],
      data: { settings: s, idealMs: idealMs(s), floorMs: floorMs(s), outcomes },
    };
  } finally {
    await sandbox.close();
  }
}
