/** `crp` told something it cannot take: the error, one line pointing to --help, and a guess for a slip of the fingers; `crp --version`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closest } from '../../src/cli/command.js';
import { ROOT, crp } from './in-process.js';

const env = { PATH: process.env.PATH };

describe('crp and its usage errors', () => {
  it('prints the error and one line pointing to --help (not the whole help), with "did you mean" for a misspelt command or flag', {
    timeout: 60_000,
  }, async () => {
    const cases: Array<[string[], string]> = [
      [['enrol', 'stores.csv'], 'crp: unknown command "enrol"; did you mean enroll?\nRun crp --help for the usage.\n'],
      [['frobnicate'], 'crp: unknown command "frobnicate"\nRun crp --help for the usage.\n'],
      [
        ['enroll', 'stores.csv', '--reprot', 'x.csv'],
        'crp: unknown option --reprot; did you mean --report?\nRun crp enroll --help for the usage.\n',
      ],
      [
        ['bookings', 'export', '--stauts=confirmed'],
        'crp: unknown option --stauts; did you mean --status?\nRun crp bookings --help for the usage.\n',
      ],
      [
        ['events', 'tail', '--chekpoint', 'x'],
        'crp: unknown option --chekpoint; did you mean --checkpoint?\nRun crp events --help for the usage.\n',
      ],
      [['summary', '--verbose'], 'crp: unknown option --verbose\nRun crp summary --help for the usage.\n'],
      [['summary', 'now'], 'crp: unexpected argument now\nRun crp summary --help for the usage.\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => crp(args, env)));
    for (const [i, [args, stderr]] of cases.entries())
      expect(runs[i], args.join(' ')).toEqual({ code: 1, stdout: '', stderr });
    // The line it points to works.
    const help = await crp(['bookings', '--help'], env);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: crp bookings export/) });
  });

  it('--version prints the package version', { timeout: 60_000 }, async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V'])
      expect(await crp([flag], env)).toEqual({ code: 0, stdout: `crp ${version}\n`, stderr: '' });
    expect((await crp(['--help'], env)).stdout).toContain('crp --version');
  });
});

describe('the guess for a misspelt name', () => {
  it.each([
    ['reprot', 'report'],
    ['resum', 'resume'],
    ['concurency', 'concurrency'],
    ['JSON', 'json'],
    ['enrol', 'enroll'],
    ['summray', 'summary'],
  ])('%s: %s', (word, meant) => {
    expect(
      closest(word, ['report', 'resume', 'concurrency', 'json', 'help', 'raw-csv', 'enroll', 'summary', 'events']),
    ).toBe(meant);
  });
  it('no guess when nothing is near', () => {
    expect(closest('verbose', ['report', 'resume', 'json', 'help'])).toBeUndefined();
    expect(closest('x', ['json', 'help'])).toBeUndefined();
  });
});
