/**
 * The house a newcomer finds: docs/architecture.md names only paths that exist, each src/ folder's
 * README says where its tests are and states no line counts, the slow set lists only real files,
 * no comment silences a linter the project does not use, and CI's service variables turn a skip
 * into a failure.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SLOW_TESTS } from '../../vitest.config.js';
import { redisServerAvailable } from '../helpers/redis-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) yield* files(path);
    } else yield path;
  }
}

/** Repository paths written in backticks: `src/core/`, `scripts/build-openapi.ts`, `vitest.config.ts`. */
function namedPaths(markdown: string): string[] {
  const tokens = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string);
  return tokens.filter(
    (t) => /^[A-Za-z][\w.-]*(\/[\w.-]+)*\/?$/.test(t) && (t.includes('/') || /\.(ts|mts|mjs|cjs|md|json)$/.test(t)),
  );
}

describe('docs/architecture.md', () => {
  const text = read('docs/architecture.md');

  it('names every folder of src/, each where it exists', () => {
    const named = namedPaths(text);
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `src/${e.name}/`);
    expect(folders.filter((folder) => !named.includes(folder))).toEqual([]);
    // dist/ is what the build writes, not part of the repository.
    const missing = named.filter((path) => !path.startsWith('dist/') && !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it('finds the paths a page names, and only those (the check can fail)', () => {
    const page =
      'Lives in `src/core/rate-limit/budget-redis.ts`, built by `npm run build` for `@crp/partner-sdk/redis`, `client.clock`, `./events`.';
    expect(namedPaths(page)).toEqual(['src/core/rate-limit/budget-redis.ts']);
    expect(existsSync(join(root, 'src/core/rate-limit/budget-redis.ts'))).toBe(false);
  });
});

describe('the READMEs of src/', () => {
  const readmes = [...files('src')].filter((path) => path.endsWith('/README.md'));

  it.each(readmes)('%s says where its tests are, naming test paths that exist', (readme) => {
    const text = read(readme);
    const testPaths = [...text.matchAll(/\btest\/[\w./-]*[\w/]/g)].map((m) => m[0]);
    expect(text).toMatch(/Tests\b[^:\n]*:/);
    expect(testPaths.length).toBeGreaterThan(0);
    expect(testPaths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it.each(readmes)('%s states no line counts (they go stale with the next edit)', (readme) => {
    expect(read(readme).match(/\b\d[\d,]* lines\b/g) ?? []).toEqual([]);
  });
});

describe('the test sets', () => {
  it('the slow set lists test files that exist', () => {
    expect(SLOW_TESTS.filter((path) => !existsSync(join(root, path)) || !statSync(join(root, path)).isFile())).toEqual(
      [],
    );
    expect(SLOW_TESTS.every((path) => path.endsWith('.test.ts'))).toBe(true);
  });
});

describe('no linter the project does not use', () => {
  it('no comment that silences ESLint in the code (the linter is Biome; biome.jsonc says why a rule is off)', () => {
    const code = ['src', 'test', 'scripts', 'bench', 'examples']
      .flatMap((dir) => [...files(dir)])
      .filter((path) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(path));
    const marker = ['eslint', 'disable'].join('-');
    expect(code.filter((path) => read(path).includes(marker)).map((path) => relative(root, join(root, path)))).toEqual(
      [],
    );
  });
});

describe('CI turns a missing service into a failure', () => {
  const saved = { PATH: process.env.PATH, CRP_REQUIRE_REDIS: process.env.CRP_REQUIRE_REDIS };
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.CRP_REQUIRE_REDIS === undefined) delete process.env.CRP_REQUIRE_REDIS;
    else process.env.CRP_REQUIRE_REDIS = saved.CRP_REQUIRE_REDIS;
  });

  it('without redis-server on PATH, the Redis suites skip, or fail when CRP_REQUIRE_REDIS=1', () => {
    process.env.PATH = join(root, 'no-such-dir');
    delete process.env.CRP_REQUIRE_REDIS;
    expect(redisServerAvailable()).toBe(false);
    process.env.CRP_REQUIRE_REDIS = '1';
    expect(() => redisServerAvailable()).toThrow('CRP_REQUIRE_REDIS=1 but redis-server is not on PATH');
  });
});
