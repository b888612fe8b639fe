/** Where things live, and the one build every benchmark uses. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT = dirname(BENCH_DIR);
/** Scratch space (git-ignored): the private build, start-up scripts, bundles. */
export const TMP = join(BENCH_DIR, '.tmp');
/**
 * The package as partners get it: `tsup` with the repository's own tsup.config.ts, written here
 * instead of dist/ so that a bench run never deletes dist/ under someone else's test run.
 */
export const BUILD = join(TMP, 'dist');

export function tmpDir(name: string): string {
  const dir = join(TMP, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Build once per `npm run bench` (the runner sets BENCH_BUILT=1 after building). */
export function ensureBuilt(): void {
  if (process.env.BENCH_BUILT === '1' && existsSync(join(BUILD, 'index.js'))) return;
  execFileSync(join(ROOT, 'node_modules/.bin/tsup'), ['--out-dir', BUILD, '--no-dts', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.BENCH_BUILT = '1';
}

export const sdkEntry = (): string => join(BUILD, 'index.js');
export const testingEntry = (): string => join(BUILD, 'testing/index.js');
export const redisEntry = (): string => join(BUILD, 'redis/index.js');
export const otelEntry = (): string => join(BUILD, 'otel/index.js');
export const eventsEntry = (): string => join(BUILD, 'events/index.js');
export const bulkEntry = (): string => join(BUILD, 'bulk/index.js');

/** The BUILT client, typed as the source. */
export async function loadSdk(): Promise<typeof import('@crp/partner-sdk')> {
  return (await import(pathToFileURL(sdkEntry()).href)) as typeof import('@crp/partner-sdk');
}

/** The BUILT Redis budget (`@crp/partner-sdk/redis`), typed as the source. */
export async function loadRedis(): Promise<typeof import('@crp/partner-sdk/redis')> {
  return (await import(pathToFileURL(redisEntry()).href)) as typeof import('@crp/partner-sdk/redis');
}

/** The BUILT OpenTelemetry adapter (`@crp/partner-sdk/otel`), typed as the source. */
export async function loadOtel(): Promise<typeof import('@crp/partner-sdk/otel')> {
  return (await import(pathToFileURL(otelEntry()).href)) as typeof import('@crp/partner-sdk/otel');
}

/** The BUILT event stream (`@crp/partner-sdk/events`), typed as the source. */
export async function loadEvents(): Promise<typeof import('@crp/partner-sdk/events')> {
  return (await import(pathToFileURL(eventsEntry()).href)) as typeof import('@crp/partner-sdk/events');
}

/** The BUILT bulk enrollment (`@crp/partner-sdk/bulk`), typed as the source. */
export async function loadBulk(): Promise<typeof import('@crp/partner-sdk/bulk')> {
  return (await import(pathToFileURL(bulkEntry()).href)) as typeof import('@crp/partner-sdk/bulk');
}

/** The BUILT sandbox emulator, typed as the source. */
export async function loadTesting(): Promise<typeof import('@crp/partner-sdk/testing')> {
  return (await import(pathToFileURL(testingEntry()).href)) as typeof import('@crp/partner-sdk/testing');
}
