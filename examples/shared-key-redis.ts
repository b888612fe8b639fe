/**
 * Several processes sharing one key's rate budget through Redis: each worker process makes its
 * own calls, and together they stay within the key's limit (600 a minute on the real service)
 * without a single 429, because every client takes from one budget kept in Redis.
 *
 *   PARTNER_API_KEY=crp_test_… PARTNER_API_BASE_URL=http://127.0.0.1:4010 REDIS_URL=redis://127.0.0.1:6379 \
 *     npx tsx examples/shared-key-redis.ts [workers=3] [calls per worker=20]
 *
 * The parent forks the workers (this same file with --worker) and prints what each did.
 * Needs the optional peer dependency ioredis. Without a reachable Redis each worker warns once and
 * goes on with a local part of the budget (it never hangs).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PartnerClient, isPartnerError, type ClientOptions } from '@crp/partner-sdk';
import { redisBudget } from '@crp/partner-sdk/redis';
import { isMain } from './support/main.js';

export interface WorkerReport {
  worker: number;
  pid: number;
  calls: number;
  /** RateLimitErrors this worker saw (should be 0: the shared budget prevents them). */
  rateLimited: number;
  ms: number;
}

/** One worker: `calls` requests through a client whose budget lives in Redis. */
export async function runWorker(worker: number, calls: number, options: ClientOptions & { redisUrl: string }): Promise<WorkerReport> {
  const { redisUrl, ...clientOptions } = options;
  // If Redis is unreachable the client goes on with a local budget after at most 2 s: say so.
  const logger = clientOptions.logger ?? { warn: (message: string) => console.warn(`worker ${worker}: ${message}`) };
  const client = new PartnerClient({ ...clientOptions, logger, rateLimit: { shared: redisBudget(redisUrl) } });
  const started = Date.now();
  let rateLimited = 0;
  try {
    for (let i = 0; i < calls; i++) {
      try {
        await client.reports.summary();
      } catch (error) {
        if (isPartnerError(error) && error.code === 'rate_limited') rateLimited++;
        else throw error;
      }
    }
  } finally {
    await client.close(); // releases the Redis connections so the process can exit
  }
  return { worker, pid: process.pid, calls, rateLimited, ms: Date.now() - started };
}

export interface SharedKeyOptions {
  workers: number;
  callsPerWorker: number;
  apiKey: string;
  baseUrl: string;
  redisUrl: string;
  /** Extra arguments for node when forking (e.g. ['--import', 'tsx'] to run this .ts file). */
  execArgv?: string[];
}

/** Fork the workers, wait for all of them, and return their reports. */
export async function runSharedKey(options: SharedKeyOptions): Promise<WorkerReport[]> {
  const file = fileURLToPath(import.meta.url);
  const children = Array.from({ length: options.workers }, (_, worker) => {
    const child = fork(file, ['--worker', String(worker), String(options.callsPerWorker)], {
      execArgv: options.execArgv ?? process.execArgv,
      env: { ...process.env, PARTNER_API_KEY: options.apiKey, PARTNER_API_BASE_URL: options.baseUrl, REDIS_URL: options.redisUrl },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise<WorkerReport>((resolve, reject) => {
      let report: WorkerReport | undefined;
      child.on('message', (message) => (report = message as WorkerReport));
      child.on('error', reject);
      child.on('exit', (code) => (report && code === 0 ? resolve(report) : reject(new Error(`worker ${worker} exited with ${code}`))));
    });
  });
  return Promise.all(children);
}

if (isMain(import.meta.url)) {
  const [flag, a, b] = process.argv.slice(2);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (flag === '--worker') {
    runWorker(Number(a), Number(b), { redisUrl })
      .then((report) => process.send?.(report))
      .catch((error: unknown) => {
        console.error(isPartnerError(error) ? error.toJSON() : error);
        process.exitCode = 1;
      });
  } else {
    const workers = Number(flag ?? 3);
    const callsPerWorker = Number(a ?? 20);
    const apiKey = process.env.PARTNER_API_KEY ?? '';
    const baseUrl = process.env.PARTNER_API_BASE_URL ?? '';
    runSharedKey({ workers, callsPerWorker, apiKey, baseUrl, redisUrl })
      .then((reports) => {
        for (const r of reports) console.log(`worker ${r.worker} (pid ${r.pid}): ${r.calls} calls in ${r.ms} ms, ${r.rateLimited} rate-limited`);
        console.log(`${reports.reduce((n, r) => n + r.calls, 0)} calls from ${workers} processes on one key, ${reports.reduce((n, r) => n + r.rateLimited, 0)} rate-limited`);
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      });
  }
}
