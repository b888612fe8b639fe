import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every src/testing module the command loads, following relative imports. */
function importGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1] as string;
    if (spec.startsWith('.')) importGraph(join(dirname(entry), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(spec);
  }
  return seen;
}

describe('the crp-sandbox command', () => {
  it('never loads msw', () => {
    const graph = [...importGraph(join(root, 'src/testing/cli.ts'))];
    expect(graph.some((m) => m === 'msw' || m.startsWith('msw/') || m.endsWith('/msw.ts'))).toBe(false);
    expect(graph.some((m) => m.endsWith('emulator.ts'))).toBe(true);
  });

  it('prints the base URL and a test key, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/testing/cli.ts'), '--port', '0', '--seed', '42'], { cwd: root });
    let out = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('PARTNER_API_KEY=')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    await ready;
    const base = /PARTNER_API_BASE_URL=(\S+)/.exec(out)?.[1];
    const key = /PARTNER_API_KEY=(\S+)/.exec(out)?.[1];
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toMatch(/^crp_test_/);
    const r = await fetch(`${base}/partner/v1/summary`, { headers: { authorization: `Bearer ${key}` } });
    expect(r.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 20_000);
});
