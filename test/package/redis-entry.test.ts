/**
 * The Redis budget is carried only by applications that import `@crp/partner-sdk/redis`: each
 * entry bundled as an application bundler would (esbuild, every export kept). The same check runs
 * on the built dist/ in scripts/check-package.mjs.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** A line of the Lua in redis-scripts.ts. */
const LUA = 'Redis is unreachable; going on with a local budget';

async function bundle(entry: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    external: ['ioredis', 'bottleneck', 'msw'],
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

describe('the Redis budget has its own entry', () => {
  it('@crp/partner-sdk carries none of it', async () => {
    const { code, inputs } = await bundle(src('index.ts'));
    expect(inputs.filter((input) => /src\/redis\//.test(input))).toEqual([]);
    expect(code).not.toContain(LUA);
  });

  it('@crp/partner-sdk/redis carries it', async () => {
    const { code, inputs } = await bundle(src('redis/index.ts'));
    expect(inputs).toEqual(expect.arrayContaining(['src/redis/sharing.ts']));
    expect(code).toContain(LUA);
  });
});
