/** Cases 1 and 2: run one rate-budget job across `processes` client processes and time it. */
import { startWorker } from './children.js';
import type { RemoteSandbox } from './sandbox.js';

export interface BudgetSettings {
  calls: number;
  concurrency: number;
  limit: number;
  windowMs: number;
}

export interface BudgetOutcome {
  way: string;
  processes: number;
  wallMs: number;
  /** wall ÷ (calls / limit × window). */
  ratio: number;
  tooMany: number;
  requests: number;
  failures: number;
}

/** calls / limit × window: what a client that spends the whole budget of every window needs. */
export const idealMs = (s: BudgetSettings): number => (s.calls / s.limit) * s.windowMs;
/** The least any client can take: the last window's calls go out as soon as it opens. */
export const floorMs = (s: BudgetSettings): number => (Math.ceil(s.calls / s.limit) - 1) * s.windowMs;

export async function runBudgetJob(
  sandbox: RemoteSandbox,
  way: 'sdk' | 'ky' | 'p-retry',
  settings: BudgetSettings,
  options: { processes?: number; redisPort?: number; label?: string } = {},
): Promise<BudgetOutcome> {
  const processes = options.processes ?? 1;
  // A fresh key per way: its own window, starting at its first request.
  const key = await sandbox.key({ limit: settings.limit, windowMs: settings.windowMs });
  const { locationIds } = await sandbox.populate(key, { locations: 1 });
  const before429 = await sandbox.count({ status: 429 });
  const beforeAll = await sandbox.count();
  const workers = Array.from({ length: processes }, () => startWorker('rate-budget'));
  try {
    await Promise.all(workers.map((w) => w.next('ready')));
    const share = (i: number) => Math.floor(settings.calls / processes) + (i < settings.calls % processes ? 1 : 0);
    const lanes = (i: number) =>
      Math.max(1, Math.floor(settings.concurrency / processes) + (i < settings.concurrency % processes ? 1 : 0));
    await Promise.all(
      workers.map((w, i) =>
        w.call({
          type: 'prepare',
          job: {
            way,
            url: sandbox.url,
            key,
            locationId: locationIds[0],
            calls: share(i),
            concurrency: lanes(i),
            ...(options.redisPort ? { redisPort: options.redisPort } : {}),
          },
        }),
      ),
    );
    const go = Date.now();
    const results = await Promise.all(
      workers.map((w) => w.call<{ startedAt: number; endedAt: number; failures: number }>({ type: 'go' })),
    );
    const wallMs = Math.max(...results.map((r) => r.endedAt)) - go;
    const tooMany = (await sandbox.count({ status: 429 })) - before429;
    const requests = (await sandbox.count()) - beforeAll;
    return {
      way: options.label ?? way,
      processes,
      wallMs,
      ratio: wallMs / idealMs(settings),
      tooMany,
      requests,
      failures: results.reduce((n, r) => n + r.failures, 0),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}
