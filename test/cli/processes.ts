/**
 * The `crp` and `crp-sandbox` commands as child processes, as a shell would run them: from the
 * sources as they are, bundled by esbuild once per test file, so that a child starts without
 * compiling the TypeScript again (tsx took about 0.5 s more per command).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Node's arguments that run a TypeScript file through tsx: for test fixtures that are not a command. */
export const TSX = ['--import', pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href];

const bundles = new Map<string, string>();
afterAll(() => {
  for (const file of bundles.values()) rmSync(file, { force: true });
  bundles.clear();
});

/**
 * `entry` (a path from the repository's root) bundled with the sources it imports; packages stay
 * imports, found in node_modules above the bundle. Built once per test file, removed after it.
 */
export function bundled(entry: 'src/cli/crp.ts' | 'src/testing/cli.ts'): string {
  const known = bundles.get(entry);
  if (known) return known;
  const dir = join(ROOT, 'node_modules/.cache/crp-tests');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${entry.replaceAll('/', '-').replace(/\.ts$/, '')}-${process.pid}-${Date.now()}.mjs`);
  buildSync({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  bundles.set(entry, outfile);
  return outfile;
}

export interface CrpSandbox {
  url: string;
  key: string;
  /** Environment for `crp`: the sandbox's URL and key, nothing from the test's own environment. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** `crp-sandbox --port 0 …`: waits for the banner's URL and key. */
export async function startCrpSandbox(args: string[] = []): Promise<CrpSandbox> {
  const child = spawn(process.execPath, [bundled('src/testing/cli.ts'), '--port', '0', '--seed', '14', ...args], {
    cwd: ROOT,
  });
  let out = '';
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/PARTNER_API_KEY=\S+\n/.test(out)) done();
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => fail(new Error(`crp-sandbox exited ${code}:\n${out}`)));
  });
  const url = /PARTNER_API_BASE_URL=(\S+)/.exec(out)?.[1] as string;
  const key = /PARTNER_API_KEY=(\S+)/.exec(out)?.[1] as string;
  return {
    url,
    key,
    env: { PATH: process.env.PATH, PARTNER_API_BASE_URL: url, PARTNER_API_KEY: key },
    stop: () => stop(child),
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Start `crp …` (stdout and stderr are pipes, so not a terminal). */
export function spawnCrp(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): ChildProcess & { finished: Promise<Finished> } {
  const child = spawn(process.execPath, [bundled('src/cli/crp.ts'), ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<Finished>((done) => child.once('close', (code) => done({ code, stdout, stderr })));
  return Object.assign(child, { finished });
}

/** Run `crp …` to its end. */
export function crp(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Finished> {
  return spawnCrp(args, env, cwd).finished;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}
