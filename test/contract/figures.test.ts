/**
 * The bundle figure the README and docs/performance.md quote is the one `npm run size -- --write`
 * wrote to bench/size.json (and CI's `npm run size` fails when the build no longer measures it);
 * the other libraries' figures are those of the last `npm run bench` (bench/results.json).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(path, 'utf8').replace(/\s+/g, ' ');
const size = JSON.parse(readFileSync('bench/size.json', 'utf8')) as { gzipKb: number; limitKb: number };
const bench = JSON.parse(readFileSync('bench/results.json', 'utf8')) as {
  cases: Array<{ id: string; rows: Array<{ variant: string; result: string }> }>;
};
const bundleRows = bench.cases.find((c) => c.id === 'bundle')?.rows ?? [];
/** The gzip kB of a bench row whose variant starts with `name`. */
const benchKb = (name: string) =>
  Number(/^([\d.]+) kB gzip/.exec(bundleRows.find((r) => r.variant.startsWith(name))?.result ?? '')?.[1]);
const ours = size.gzipKb.toFixed(1);

describe('the bundle figure', () => {
  it("the README quotes bench/size.json, and compares it with openai's truly", () => {
    const readme = read('README.md');
    expect(readme).toContain(`bundles to ${ours} kB gzip ([bench/size.json](bench/size.json)`);
    const openai = benchKb('openai');
    expect(openai).toBeGreaterThan(0);
    expect(readme).toContain(
      `${size.gzipKb > openai ? 'larger' : 'smaller'} than openai (${openai.toFixed(1)} kB; stripe ${benchKb('stripe').toFixed(1)} kB, Octokit ${benchKb('octokit').toFixed(1)} kB`,
    );
    // No other figure for our bundle: every "N kB gzip" in the README is ours or another library's.
    const quoted = [...readme.matchAll(/([\d.]+) kB gzip/g)].map((m) => m[1]);
    expect(quoted).toEqual([ours]);
  });

  it('docs/performance.md quotes bench/size.json, its limit, and the bench measured the same app alike', () => {
    const page = read('docs/performance.md');
    expect(page).toContain(`bundle ${ours} kB (bench/size.json;`);
    expect(page).toContain(`above ${size.limitKb.toFixed(1)} kB gzip`);
    expect(benchKb('@crp/partner-sdk').toFixed(1)).toBe(ours);
    expect(page).toContain(`| 6. Bundle size | @crp/partner-sdk | ${ours} kB gzip`);
  });
});
