#!/usr/bin/env node
/**
 * Runs the smoke client (scripts/smoke/client.mjs) against the built dist in other runtimes:
 *
 *   node scripts/runtime-smoke.mjs [node20] [node22] [node24] [bun] [deno] [edge]   (default: all)
 *
 * The sandbox emulator runs here, in Node, on a loopback port (from dist/testing); each runtime
 * gets its own key with 3 populated stores and 45 bookings, and runs the client as a child process
 * (edge: an esbuild bundle evaluated in edge-runtime, which also checks the browser guard with
 * window/document defined). Bun and Deno come from their npm packages, installed into .tools/
 * (git-ignored) on first use; Node 22/24 from the npm registry's node@22/node@24 via npx.
 * Exits non-zero if any runtime fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const tools = join(root, '.tools');
/** Versions verified with this SDK; bump deliberately. */
const PINNED = { bun: 'bun@1.4.5', deno: 'deno@2.9.6' };
const ALL = ['node20', 'node22', 'node24', 'bun', 'deno', 'edge'];

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const name of wanted) if (!ALL.includes(name)) fail(`unknown runtime ${name}; choose from ${ALL.join(', ')}`);
if (!existsSync(join(dist, 'index.js'))) fail('dist/ is missing: run `npm run build` first');

function fail(message) {
  console.error(`runtime-smoke: ${message}`);
  process.exit(1);
}

/** Bun or Deno from npm, installed once into .tools/ (not a devDependency: ~100 MB each). */
function toolBinary(name) {
  const bin = join(tools, 'node_modules', '.bin', name);
  if (!existsSync(bin)) {
    mkdirSync(tools, { recursive: true });
    if (!existsSync(join(tools, 'package.json'))) writeFileSync(join(tools, 'package.json'), '{ "private": true }\n');
    console.log(`installing ${PINNED.bun} and ${PINNED.deno} from npm into .tools/ ...`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', tools, PINNED.bun, PINNED.deno], {
      stdio: 'inherit',
    });
    if (npm.status !== 0) fail('npm install of bun/deno failed');
  }
  // npm 11 may not run the packages' install scripts; the binaries must still work.
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) fail(`${bin} --version failed: ${version.stderr || version.error}`);
  return { bin, version: version.stdout.trim().split('\n')[0] };
}

function run(command, args, env) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({
        code,
        out: out
          .split('\n')
          .filter((line) => !line.startsWith('npm warn'))
          .join('\n')
          .trim(),
      });
    });
  });
}

const { createSandbox } = await import(pathToFileURL(join(dist, 'testing', 'index.js')).href);
const sandbox = createSandbox({ seed: 11 });
const server = await sandbox.listen(0);
const sdkUrl = pathToFileURL(join(dist, 'index.js')).href;
const clientScript = join(root, 'scripts', 'smoke', 'run.mjs');
const keyFor = (runtime) => {
  const key = sandbox.issueKey();
  sandbox.populate(key, { locations: 3, reservationsPerLocation: 15, idPrefix: `${runtime}-` });
  return key;
};

async function runtimeRun(name) {
  const apiKey = keyFor(name);
  const env = { PARTNER_API_KEY: apiKey, PARTNER_API_BASE_URL: server.url };
  switch (name) {
    case 'node20':
      return { version: process.version, ...(await run(process.execPath, [clientScript, sdkUrl, name], env)) };
    case 'node22':
    case 'node24': {
      const pkg = `node@${name.slice(4)}`;
      const args = ['--yes', '-p', pkg, '--', 'node'];
      const version = (await run('npx', [...args, '--version'], {})).out.split('\n').pop();
      return { version, ...(await run('npx', [...args, clientScript, sdkUrl, name], env)) };
    }
    case 'bun': {
      const { bin, version } = toolBinary('bun');
      return { version: `bun ${version}`, ...(await run(bin, ['run', clientScript, sdkUrl, name], env)) };
    }
    case 'deno': {
      const { bin, version } = toolBinary('deno');
      return {
        version,
        ...(await run(
          bin,
          ['run', '--quiet', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', clientScript, sdkUrl, name],
          env,
        )),
      };
    }
    case 'edge':
      return edgeRun(apiKey);
  }
}

/** Bundle like a worker deployment would (esbuild, browser platform, ESM dist), run in edge-runtime. */
async function edgeRun(apiKey) {
  const [{ build }, { EdgeRuntime }] = await Promise.all([import('esbuild'), import('edge-runtime')]);
  const bundled = await build({
    entryPoints: [join(root, 'scripts', 'smoke', 'edge-entry.mjs')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    conditions: ['worker', 'browser'],
    alias: { '@crp/partner-sdk': join(dist, 'index.js') },
    // No `external`: the main entry refers to neither ioredis nor Bottleneck (the Redis budget is
    // in @crp/partner-sdk/redis, which needs Node sockets and has no place in an edge bundle).
    logLevel: 'warning',
  });
  const code = bundled.outputFiles[0].text;
  const options = JSON.stringify({ apiKey, baseUrl: server.url, runtime: 'edge' });
  const lines = [];
  try {
    const runtime = new EdgeRuntime({ initialCode: code });
    lines.push(await runtime.evaluate(`__crpSmoke(${options})`));
    // A second VM whose global scope looks like a browser page.
    const page = new EdgeRuntime({ initialCode: `globalThis.window = globalThis; globalThis.document = {};\n${code}` });
    lines.push(await page.evaluate(`__crpBrowserGuard(${options})`));
    return { version: `edge-runtime (bundle ${(code.length / 1024).toFixed(0)} kB)`, code: 0, out: lines.join('\n') };
  } catch (error) {
    return { version: 'edge-runtime', code: 1, out: [...lines, String(error?.stack ?? error)].join('\n') };
  }
}

let failed = 0;
try {
  for (const name of wanted) {
    const started = Date.now();
    const result = await runtimeRun(name);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const ok = result.code === 0;
    if (!ok) failed++;
    console.log(
      `${ok ? 'PASS' : 'FAIL'} ${name.padEnd(6)} ${result.version}  (${seconds}s)\n  ${result.out.split('\n').join('\n  ')}`,
    );
  }
} finally {
  await server.close();
}
console.log(`${wanted.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
