/**
 * The crp-sandbox command, run as a child process the way a partner runs it: --help, the banner,
 * time that flows, the admin token, and command lines it must refuse with exit code 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OPTION_NAMES } from '../../src/testing/cli/options.js';
import { bundled } from '../cli/processes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(root, 'src/testing/cli.ts');

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

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [bundled('src/testing/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  running.push(child);
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern) =>
      new Promise((done, fail) => {
        const check = (): void => {
          const m = pattern.exec(out);
          if (m) done(m);
          else waiters.push(check);
        };
        void exited.then((code) => fail(new Error(`exited ${code} before ${pattern}: ${out}${err}`)));
        check();
      }),
  };
}

async function started(args: string[], env?: Record<string, string>) {
  const r = run(args, env);
  const base = (await r.waitFor(/PARTNER_API_BASE_URL=(\S+)/))[1] as string;
  const key = (await r.waitFor(/PARTNER_API_KEY=(\S+)/))[1] as string;
  return { ...r, base, key };
}

describe('crp-sandbox', () => {
  it('never loads msw', () => {
    const graph = [...importGraph(CLI)];
    expect(graph.some((m) => m === 'msw' || m.startsWith('msw/') || m.endsWith('/msw.ts'))).toBe(false);
    expect(graph.some((m) => m.endsWith('emulator.ts'))).toBe(true);
  });

  it('--help lists every option, each with an example, and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exited).toBe(0);
    const help = r.stdout();
    expect(OPTION_NAMES.length).toBeGreaterThanOrEqual(12);
    for (const name of OPTION_NAMES) {
      const at = help.indexOf(`  --${name}`);
      expect(at, name).toBeGreaterThan(-1);
      // The option's own example follows on the next line.
      expect(help.slice(at).split('\n')[1], name).toMatch(new RegExp(`e\\.g\\. crp-sandbox .*--${name}\\b`));
    }
  });

  it('prints the bound address, says time stands still and how to advance it, serves, and stops on SIGTERM', async () => {
    const r = await started(['--port', '0', '--seed', '42']);
    expect(r.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(r.base).port;
    expect(r.stdout()).toContain(`listening on 127.0.0.1:${port}`);
    expect(r.stdout()).toMatch(/time\s+simulated, now 2026-12-01T09:00:00\.000Z; stands still until you advance it/);
    expect(r.stdout()).toContain(`curl -X POST ${r.base}/_sandbox/clock/advance`);
    expect(r.key).toMatch(/^crp_test_/);
    const summary = await fetch(`${r.base}/partner/v1/summary`, { headers: { authorization: `Bearer ${r.key}` } });
    expect(summary.status).toBe(200);
    await new Promise((done) => setTimeout(done, 300));
    expect((await (await fetch(`${r.base}/_sandbox/clock`)).json()).now).toBe('2026-12-01T09:00:00.000Z');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  it('gives a random key without --seed and the same key with the same --seed', async () => {
    const keys = [];
    for (const args of [['--seed', '7'], ['--seed', '7'], [], []]) {
      const r = await started(['--port', '0', ...args]);
      keys.push(r.key);
      r.child.kill('SIGTERM');
      await r.exited;
    }
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(3);
  });

  it("keeps the banner's key valid across /_sandbox/reset, with the demo stores back and nothing else", async () => {
    const r = await started(['--port', '0', '--seed', '9', '--stores', '2']);
    expect(r.stdout()).toContain(`curl -X POST ${r.base}/_sandbox/reset`);
    const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const total = async (key: string) =>
      (await (await fetch(`${r.base}/partner/v1/summary`, { headers: auth(key) })).json()).locations.total;
    const address = { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' };
    const enrolled = await fetch(`${r.base}/partner/v1/locations`, {
      method: 'POST',
      headers: auth(r.key),
      body: JSON.stringify({ partner_location_id: 'mine', name: 'Mine', address }),
    });
    expect(enrolled.status).toBe(201);
    expect(await total(r.key)).toBe(3);

    const reset = await fetch(`${r.base}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(reset.status).toBe(200);
    expect(await total(r.key)).toBe(2);
    const mine = await fetch(`${r.base}/partner/v1/locations/mine`, { headers: auth(r.key) });
    expect(mine.status).toBe(404);
    // A key issued after the reset is another key, with its own account (a seeded sandbox draws
    // keys as it did at start-up, so it must not hand out the banner's key a second time).
    const issued = await (
      await fetch(`${r.base}/_sandbox/keys`, { method: 'POST', headers: { 'content-type': 'application/json' } })
    ).json();
    expect(issued.key).not.toBe(r.key);
    expect(await total(issued.key)).toBe(0);
    expect(await total(r.key)).toBe(2);
    // What reset says of itself, in the control index and the served document, is what it did.
    const index: { endpoints: string[] } = await (await fetch(`${r.base}/_sandbox`)).json();
    const served = await (await fetch(`${r.base}/openapi.json`)).json();
    for (const summary of [
      index.endpoints.find((line) => line.startsWith('POST /_sandbox/reset')),
      served.paths['/_sandbox/reset'].post.summary,
    ]) {
      expect(summary).toMatch(/crp-sandbox then issues the key its banner printed again/);
      expect(summary).not.toMatch(/forget everything/);
    }
  });

  it('--pace makes time flow: bookings happen and are printed while it serves', async () => {
    const r = await started(['--port', '0', '--pace', '86400', '--stores', '3']);
    expect(r.stdout()).toMatch(/flows at 86400× \(one simulated day per real second\)/);
    const read = async () => new Date((await (await fetch(`${r.base}/_sandbox/clock`)).json()).now).getTime();
    const first = await read();
    await r.waitFor(/\[2026-12-\d\d \d\d:\d\d simulated\] .*(new booking|confirmed|visited|video)/);
    const second = await read();
    expect(second - first).toBeGreaterThan(3_600_000);
    const changes = await (
      await fetch(`${r.base}/_sandbox/changes?limit=1000`, { headers: { authorization: `Bearer ${r.key}` } })
    ).json();
    expect(changes.items.some((c: { at: string }) => Date.parse(c.at) > Date.parse('2026-12-01T09:00:00Z'))).toBe(true);
  });

  it('needs --admin-token to bind beyond loopback, and then every control call needs it', async () => {
    const refused = run(['--port', '0', '--host', '0.0.0.0']);
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toMatch(/--admin-token/);
    expect(refused.stderr()).toMatch(/^Usage: crp-sandbox/m);

    const token = 'a-long-admin-token-0123';
    const r = await started(['--port', '0', '--host', '0.0.0.0'], { CRP_SANDBOX_ADMIN_TOKEN: token });
    expect(r.stdout()).toMatch(/listening on 0\.0\.0\.0:\d+/);
    expect(r.stdout()).toContain('every call needs X-Sandbox-Admin-Token');
    expect((await fetch(`${r.base}/_sandbox/clock`)).status).toBe(401);
    expect((await fetch(`${r.base}/_sandbox/clock`, { headers: { authorization: `Bearer ${r.key}` } })).status).toBe(
      401,
    );
    expect((await fetch(`${r.base}/_sandbox/clock`, { headers: { 'x-sandbox-admin-token': token } })).status).toBe(200);
    expect(
      (await fetch(`${r.base}/partner/v1/summary`, { headers: { authorization: `Bearer ${r.key}` } })).status,
    ).toBe(200);
  });

  it('refuses bad command lines with the usage and exit code 2, never a stack', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const busy = (blocker.address() as { port: number }).port;
    try {
      const cases: Array<[string[], RegExp]> = [
        [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
        [['--port', 'abc'], /--port must be a whole number/],
        [['--port', String(busy)], new RegExp(`port ${busy} is already in use`)],
        [
          ['--port', '0', '--host', '203.0.113.9', '--admin-token', 'a-long-admin-token-0123'],
          /--host 203\.0\.113\.9 is not an address of this machine/,
        ],
        [
          ['--port', '0', '--host', 'no-such-host.invalid', '--admin-token', 'a-long-admin-token-0123'],
          /--host no-such-host\.invalid is not an address/,
        ],
        [['--admin-token', 'short'], /at least 16 characters/],
        [['--pace', 'fast'], /--pace must be a number/],
        [['--dialect', 'ietf'], /--dialect must be one of/],
        [['--nope'], /Unknown option '--nope'/],
      ];
      for (const [args, message] of cases) {
        const r = run(args);
        expect(await r.exited, args.join(' ')).toBe(2);
        expect(r.stderr(), args.join(' ')).toMatch(message);
        expect(r.stderr()).toMatch(/^Usage: crp-sandbox/m);
        expect(r.stderr()).not.toMatch(/^\s+at /m);
      }
    } finally {
      blocker.close();
    }
  }, 60_000);
});
