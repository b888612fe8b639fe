import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathGlob } from '../../src/testing/faults/path-glob.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/testing/index.js';
import { fastCheckRuns } from '../helpers/fast-check-runs.js';

/**
 * A fault's `pathPattern` comes from outside (POST /_sandbox/faults). As a RegExp, `^/(a+)+$` and a
 * 30-character path blocked the whole server for seconds; as a glob it cannot.
 */
describe('pathPattern over the control API is a glob, never a RegExp', () => {
  let sandbox: Sandbox;
  let server: ListeningSandbox;
  beforeAll(async () => {
    sandbox = createSandbox({ seed: 3 });
    server = await sandbox.listen(0);
  });
  afterAll(() => server.close());

  const postFault = (body: unknown) =>
    fetch(`${server.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a catastrophic-backtracking pattern costs nothing: the request is answered at once', async () => {
    expect((await postFault({ status: 503, pathPattern: '^/(a+)+$', times: 1 })).status).toBe(201);
    const started = performance.now();
    const response = await fetch(`${server.url}/${'a'.repeat(30)}!`);
    const elapsed = performance.now() - started;
    expect(response.status).not.toBe(503);
    expect(elapsed).toBeLessThan(500);
    await fetch(`${server.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('* stands for any run of characters; the rest is literal and case-sensitive', async () => {
    expect((await postFault({ status: 502, pathPattern: '/partner/v1/sum*', times: 5 })).status).toBe(201);
    expect((await fetch(`${server.url}/partner/v1/summary`)).status).toBe(502);
    expect((await fetch(`${server.url}/partner/v1/SUMMARY`)).status).not.toBe(502);
    expect((await fetch(`${server.url}/partner/v1/settings`)).status).not.toBe(502);
    await fetch(`${server.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('refuses pathFlags, saying pathPattern is a glob now', async () => {
    const response = await postFault({ status: 503, pathPattern: '^/x$', pathFlags: 'i' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'validation_error', field: 'pathFlags', message: expect.stringMatching(/glob/) },
    });
  });
});

describe('PathGlob', () => {
  /** The reference: the same glob as an anchored RegExp, fine for the tiny inputs generated here. */
  const reference = (pattern: string, path: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('[\\s\\S]*')}$`,
    ).test(path);
  const alphabet = fc.constantFrom('a', 'b', '/', '.', '*');

  it('matches exactly what the anchored RegExp of the same glob matches', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, minLength: 1, maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 10 }),
        (pattern, path) => {
          expect(new PathGlob(pattern).test(path)).toBe(reference(pattern, path));
        },
      ),
      fastCheckRuns(500),
    );
  });

  it.each<[string, string, boolean]>([
    ['*', '', true],
    ['a*', 'a', true],
    ['a**', 'a', true],
    ['*a*', 'a', true],
    ['a*b', 'a', false],
    ['a', '', false],
  ])('%j against %j: %j (stars left once the path is used up match the empty rest)', (pattern, path, expected) => {
    expect(new PathGlob(pattern).test(path)).toBe(expected);
    expect(reference(pattern, path)).toBe(expected);
  });

  it('stays fast on its worst case: many stars against a long path that does not match', () => {
    const glob = new PathGlob(`${'*a'.repeat(200)}*b`);
    const started = performance.now();
    expect(glob.test('a'.repeat(8_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses an empty pattern or one over 512 characters, saying how long one may be', () => {
    expect(() => new PathGlob('')).toThrow(RangeError);
    expect(() => new PathGlob('x'.repeat(513))).toThrow(new RangeError('pathPattern must be 1 to 512 characters'));
    expect(new PathGlob('x'.repeat(512)).test('x'.repeat(512))).toBe(true);
  });
});
