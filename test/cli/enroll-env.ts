/** What the `crp enroll` tests share: one sandbox served in process and one scratch folder per test file, the stores header, a row, a `.jsonl` report read back. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { serveSandbox, type ServedSandbox } from './in-process.js';

export const HEADER = 'partner_location_id,name,line1,city,state,postal_code,country';
export const row = (id: string, name: string, n: number) => `${id},${name},${n} Congress Ave,Austin,TX,78704,US`;
export const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A sandbox started before the file's tests and a folder under the system's temp folder (`prefix`…), both gone after them. */
export function enrollEnv(prefix: string): { dir: string; sandbox: ServedSandbox } {
  const env = {} as { dir: string; sandbox: ServedSandbox };
  beforeAll(async () => {
    env.dir = mkdtempSync(join(tmpdir(), prefix));
    env.sandbox = await serveSandbox();
  }, 30_000);
  afterAll(async () => {
    await env.sandbox?.stop();
    rmSync(env.dir, { recursive: true, force: true });
  });
  return env;
}
