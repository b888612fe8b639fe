/**
 * No file of the repository shows `crp` or `crp-sandbox` run in a way that can resolve to another
 * package: without the SDK installed, `npx crp` fetches whatever registry package is named `crp`
 * and runs it with the partner's key in its environment. Safe forms name the package
 * (`npx -p @crp/partner-sdk crp`) or refuse to install (`npm exec --no-install`, `npx --no`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './processes.js';

/** A runner that may fetch a package, its options, then the command. */
const RUNNER =
  /\b(npx|npm\s+exec|npm\s+x|pnpm\s+dlx|pnpx|yarn\s+dlx|bunx)((?:\s+--?[\w-]+(?:[= ][@\w./-]+)?)*?)(?:\s+--)?\s+(crp(?:-sandbox)?)(?![\w.@/-])/g;
/** Options that pin the package or forbid fetching one. */
const SAFE = /(?:^|\s)(?:-p|--package)[= ]@crp\/partner-sdk\b|(?:^|\s)--(?:no-install|no)\b|(?:^|\s)--yes=false\b/;

/** Each bare form in `text`: its line and what it says. */
function bareForms(text: string): Array<{ line: number; said: string }> {
  const found: Array<{ line: number; said: string }> = [];
  for (const match of text.matchAll(RUNNER)) {
    if (SAFE.test(match[2] ?? '')) continue;
    found.push({ line: text.slice(0, match.index).split('\n').length, said: match[0] });
  }
  return found;
}

const SELF = relative(ROOT, fileURLToPath(import.meta.url));

describe('the forms that run crp', () => {
  // Built from parts, so that this file shows no bare form itself.
  const n = 'np' + 'x';
  it.each([
    `${n} crp enroll x.csv`,
    `${n} crp-sandbox --port 4010`,
    `${n} --yes crp summary`,
    `npm exec crp -- summary`,
    `npm exec -- crp summary`,
    `pnpm dlx crp`,
    `run \`${n} crp\`.`,
    `${n} -p other-pkg crp`,
  ])('finds %j', (text) => {
    expect(bareForms(text)).toHaveLength(1);
  });
  it.each([
    `${n} -p @crp/partner-sdk crp enroll x.csv`,
    `${n} --package=@crp/partner-sdk crp-sandbox`,
    'npm exec --no-install -- crp summary',
    `${n} --no-install crp summary`,
    'node_modules/.bin/crp summary',
    `${n} tsx examples/demo.ts`,
    `${n} crpx`,
  ])('passes %j', (text) => {
    expect(bareForms(text)).toEqual([]);
  });

  it('no tracked file of the repository shows a bare one (README, docs, help texts, examples, code)', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((path) => path !== '' && path !== SELF);
    expect(tracked.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const path of tracked) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(ROOT, path));
      } catch {
        continue; // deleted in the work tree, not yet in the index
      }
      if (bytes.includes(0)) continue; // binary
      for (const { line, said } of bareForms(bytes.toString('utf8'))) offenders.push(`${path}:${line}: ${said}`);
    }
    expect(offenders).toEqual([]);
  });
});
