/**
 * The type tests (test/types/*.test-d.ts) hold on TypeScript 7 too: the native compiler (tsgo, from
 * @typescript/native-preview) checks them as vitest's typecheck does with TypeScript 5.9. A type
 * that narrows on 5.9 but not on 7 (or an @ts-expect-error that 7 no longer needs) fails here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsgo = join(root, 'node_modules/@typescript/native-preview/bin/tsgo');
const scratch = mkdtempSync(join(root, 'test/types/.tsgo-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** tsgo over the type tests plus `extra` files, with the project's compiler options. */
function typecheck(extra: string[] = []): { status: number | null; out: string } {
  const config = join(scratch, `tsconfig-${extra.length}.json`);
  writeFileSync(config, JSON.stringify({ extends: join(root, 'tsconfig.json'), include: [join(root, 'test/types/*.test-d.ts'), ...extra], compilerOptions: { noEmit: true } }));
  const run = spawnSync(process.execPath, [tsgo, '--version'], { encoding: 'utf8' });
  expect(run.stdout).toMatch(/^Version 7\./);
  const result = spawnSync(process.execPath, [tsgo, '-p', config], { encoding: 'utf8', cwd: root });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('type tests on TypeScript 7 (tsgo)', () => {
  it('compile: every code narrows to its class, a misspelt case is refused', { timeout: 60_000 }, () => {
    const { status, out } = typecheck();
    expect(out).toBe('');
    expect(status).toBe(0);
  });

  it('would fail on a case the codes do not have (the check can fail)', { timeout: 60_000 }, () => {
    const wrong = join(scratch, 'misspelt.ts');
    writeFileSync(
      wrong,
      `import { isPartnerError } from '${join(root, 'src/index.js')}';\ndeclare const e: unknown;\nif (isPartnerError(e)) { switch (e.code) { case 'not_a_real_code': break; } }\n`,
    );
    const { status, out } = typecheck([wrong]);
    expect(status).not.toBe(0);
    expect(out).toContain('not_a_real_code');
  });
});
