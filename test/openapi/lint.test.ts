/**
 * `npm run lint:openapi` in CI lints dist/openapi.json; the committed copy is the same text
 * (document.test.ts), so linting it here finds the same problems before a build.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the OpenAPI document under Redocly lint', () => {
  it('has no problem under its recommended rules, each an error (redocly.yaml)', async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { stdout } = await run(
      process.execPath,
      ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'src/testing/http/openapi.json', '--format=json'],
      { env, timeout: 60_000 },
    ).catch((failed: { stdout: string }) => failed);
    const report = JSON.parse(stdout) as {
      totals: Record<string, number>;
      problems: Array<{ ruleId: string; location: Array<{ pointer: string }> }>;
    };
    expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
