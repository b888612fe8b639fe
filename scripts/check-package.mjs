#!/usr/bin/env node
/**
 * `npm run check:package` (after `npm run build`): checks the package as partners will get it.
 *
 *  1. `npm pack`: the tarball holds only dist/ (with dist/openapi.json), docs/*.md, README.md,
 *     CHANGELOG.md, LICENSE, package.json; every `docs/….md` that dist/ (help texts, errors, TSDoc)
 *     or README.md mentions is in it, so each reference resolves in the installed package.
 *  2. publint --strict on the packed files: nothing reported.
 *  3. @arethetypeswrong/cli on the tarball (node10, node16 CJS/ESM, bundler): nothing reported.
 *  4. The CJS builds require() only packages that have a CommonJS entry (ky and p-retry, ESM-only,
 *     must be inlined), so `require('@crp/partner-sdk')` works on Node 20.0-20.18 too.
 *  5. The Redis budget is only in `./redis`: dist/index.js and .cjs hold none of its Lua; and
 *     OpenTelemetry only in `./otel`.
 *  6. The declarations (every .d.ts and .d.cts under dist/) cite no file outside the repository and no
 *     "spec §N": partners cannot open either.
 *  7. A consumer project installs the tarball WITHOUT msw and ioredis: the client, `./testing`
 *     (`createSandbox().listen()`) and `./redis` work from ESM and CJS, the crp-sandbox bin serves, crp --help runs,
 *     `@crp/partner-sdk/openapi.json` imports (ESM, with `type: 'json'`) and requires (CJS) as the
 *     OpenAPI document, and tsc (nodenext, strict, `skipLibCheck: false`) type-checks an ESM and a CJS file against the
 *     published types: msw, an optional peer, is not needed to compile the `/testing` declarations.
 *  8. msw is then added: `sandbox.mswHandlers()` works with the consumer's setupServer, ESM and CJS,
 *     and is typed as msw's own `HttpHandler[]`.
 *  9. @opentelemetry/api is then added: `./otel` works from ESM and CJS with the application's own
 *     API instance, and its types check (nodenext). OpenTelemetry is in dist/otel only (step 5).
 * 10. The same consumer (msw removed again) on Node 20.18 (npm's node@20.18.3), which cannot
 *     require() ESM: the client from CJS and ESM, ./otel from CJS.
 *
 * Exits non-zero on the first failure. Uses a temporary directory; the npm cache makes the
 * consumer install take a few seconds.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outsideReferences } from './outside-references.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tscVersion = () => sh(process.execPath, [tsc, '--version']).trim();
const work = mkdtempSync(join(tmpdir(), 'crp-check-package-'));
const started = Date.now();
/** The newest Node 20 without require(esm) (it came in 20.19). */
const OLD_NODE = '20.18.3';
let step = 0;

/** `@crp/partner-sdk/openapi.json` from the consumer, as ESM (a JSON module) and CJS: the OpenAPI document both ways. */
const OPENAPI_CHECK = `
  if (doc.openapi !== '3.1.0' || !doc.paths['/partner/v1/locations']) throw new Error('@crp/partner-sdk/openapi.json is not the OpenAPI document');
  console.log(KIND + ': @crp/partner-sdk/openapi.json is OpenAPI ' + doc.openapi + ', ' + Object.keys(doc.paths).length + ' paths');`;
const OPENAPI_ESM = `import doc from '@crp/partner-sdk/openapi.json' with { type: 'json' }; const KIND = 'ESM import';${OPENAPI_CHECK}`;
const OPENAPI_CJS = `const doc = require('@crp/partner-sdk/openapi.json'); const KIND = 'CJS require';${OPENAPI_CHECK}`;

function section(title) {
  console.log(`\n[${++step}] ${title}  (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}
function sh(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(`${command} ${args.join(' ')} failed (exit ${error.status}):\n${output}`);
  }
}
/** Print a tool's output without npm's config chatter. */
function show(text) {
  const lines = text.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
  console.log(lines.map((line) => `    ${line}`).join('\n'));
}

try {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  section(
    'npm pack: only dist/, docs/*.md, README.md, CHANGELOG.md, LICENSE and package.json; every docs/ path mentioned is in it',
  );
  const [packed] = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], { cwd: root }));
  const tarball = join(work, packed.filename);
  const allowed = (path) =>
    path.startsWith('dist/') ||
    /^docs\/[^/]+\.md$/.test(path) ||
    ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(path);
  const unexpected = packed.files.map((f) => f.path).filter((path) => !allowed(path));
  if (unexpected.length) throw new Error(`unexpected files in the tarball: ${unexpected.join(', ')}`);
  for (const needed of [
    'package.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'dist/index.js',
    'dist/index.cjs',
    'dist/testing/cli.js',
    'dist/cli/crp.js',
    'dist/redis/index.js',
    'dist/redis/index.cjs',
    'dist/otel/index.js',
    'dist/otel/index.cjs',
    'dist/events/index.js',
    'dist/events/index.cjs',
    'dist/bulk/index.js',
    'dist/bulk/index.cjs',
    'dist/postgres/index.js',
    'dist/postgres/index.cjs',
    'dist/openapi.json',
    'docs/http.md',
    'docs/sandbox.md',
  ]) {
    if (!packed.files.some((f) => f.path === needed)) throw new Error(`the tarball lacks ${needed}`);
  }
  const packedPaths = new Set(packed.files.map((f) => f.path));
  const mentioning = [
    'README.md',
    ...packed.files.map((f) => f.path).filter((path) => path.startsWith('dist/') && /\.(c?js|d\.c?ts)$/.test(path)),
  ];
  const dangling = mentioning.flatMap((file) =>
    [...new Set(readFileSync(join(root, file), 'utf8').match(/\bdocs\/[\w.-]+\.md\b/g) ?? [])]
      .filter((doc) => !packedPaths.has(doc))
      .map((doc) => `${file} mentions ${doc}`),
  );
  if (dangling.length) throw new Error(`docs the package mentions but does not ship:\n${dangling.join('\n')}`);
  const docsMentioned = new Set(
    mentioning.flatMap((file) => readFileSync(join(root, file), 'utf8').match(/\bdocs\/[\w.-]+\.md\b/g) ?? []),
  );
  console.log(
    `    every docs/ path mentioned in README.md and dist/ is packed: ${[...docsMentioned].sort().join(', ')}`,
  );
  console.log(
    `    ${packed.filename}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked`,
  );
  show(
    packed.files
      .map((f) => f.path)
      .sort()
      .join('  '),
  );

  section('publint --strict (on the packed files)');
  const unpacked = join(work, 'unpacked');
  sh('mkdir', ['-p', unpacked]);
  sh('tar', ['-xzf', tarball, '-C', unpacked]);
  const lint = sh(bin('publint'), ['run', join(unpacked, 'package'), '--strict', '--pack', 'false'], { cwd: root });
  show(lint);
  if (!/All good!/.test(lint)) throw new Error('publint reported something');

  section('@arethetypeswrong/cli (node10, node16 CJS and ESM, bundler)');
  const attw = sh(bin('attw'), [tarball, '--format', 'table-flipped'], { cwd: root });
  show(
    attw
      .split('\n')
      .filter((line) => /No problems|problem|💀|❌|⚠️|🥴|🐛|❗️/.test(line))
      .join('\n') || attw,
  );
  if (!/No problems found/.test(attw)) throw new Error(`attw reported problems:\n${attw}`);

  section('CommonJS builds require() only CommonJS-capable packages');
  const cjsOk = new Set(['zod/mini', 'bottleneck', 'ioredis', 'msw', '@opentelemetry/api', 'pg']);
  // Our own files only as .cjs (dist/redis, events and bulk require ../index.cjs).
  const ownCjs = (name) => name.startsWith('.') && name.endsWith('.cjs');
  for (const file of [
    'dist/index.cjs',
    'dist/testing/index.cjs',
    'dist/redis/index.cjs',
    'dist/otel/index.cjs',
    'dist/events/index.cjs',
    'dist/bulk/index.cjs',
    'dist/postgres/index.cjs',
  ]) {
    const code = readFileSync(join(unpacked, 'package', file), 'utf8');
    // Not a method that happens to be called require (`this.#require('save')`).
    const required = [...code.matchAll(/(?<![\w$#.])require\((["'])([^"']+)\1\)/g)].map((m) => m[2]);
    const bad = required.filter((name) => !name.startsWith('node:') && !cjsOk.has(name) && !ownCjs(name));
    if (bad.length)
      throw new Error(`${file} requires ${bad.join(', ')} (not known to be CommonJS: inline it with tsup noExternal)`);
    console.log(`    ${file}: require(${[...new Set(required)].join(', ')})`);
  }

  section('the Redis budget is in dist/redis only, OpenTelemetry in dist/otel only, the OpenAPI generator nowhere');
  const lua = 'Redis is unreachable; going on with a local budget'; // a line of src/redis/sharing.ts
  for (const [file, expected] of [
    ['dist/index.js', false],
    ['dist/index.cjs', false],
    ['dist/redis/index.js', true],
    ['dist/redis/index.cjs', true],
  ]) {
    if (readFileSync(join(unpacked, 'package', file), 'utf8').includes(lua) !== expected)
      throw new Error(`${file} ${expected ? 'lacks' : 'contains'} the Redis scripts`);
  }
  console.log('    dist/index.js, dist/index.cjs: no Redis code; dist/redis/index.js, .cjs: the Redis budget');
  for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/testing/index.js', 'dist/redis/index.js']) {
    if (readFileSync(join(unpacked, 'package', file), 'utf8').includes('@opentelemetry'))
      throw new Error(`${file} refers to OpenTelemetry; only dist/otel may`);
  }
  console.log(
    '    dist/index.*, dist/testing, dist/redis: nothing of OpenTelemetry; dist/otel: imports @opentelemetry/api (a peer)',
  );
  // A line of src/openapi/descriptions.ts: the generator (and the TypeScript compiler it loads) runs at build time only.
  const generator = 'FieldDocs: cannot read the module';
  for (const file of packed.files.map((f) => f.path).filter((path) => /\.c?js$/.test(path))) {
    if (readFileSync(join(unpacked, 'package', file), 'utf8').includes(generator))
      throw new Error(
        `${file} contains the OpenAPI generator (src/openapi/): only scripts/build-openapi.ts may import it`,
      );
  }
  console.log('    no bundle holds the OpenAPI generator; dist/openapi.json is its output');

  section('published declarations name no file outside the repository and no section of the service specification');
  const declarations = readdirSync(join(unpacked, 'package', 'dist'), { recursive: true }).filter((f) =>
    /\.d\.c?ts$/.test(f),
  );
  const cited = declarations.flatMap((f) =>
    outsideReferences(readFileSync(join(unpacked, 'package', 'dist', f), 'utf8'), `dist/${f}`),
  );
  if (cited.length)
    throw new Error(
      `declaration comments cite what partners cannot open (reword the source TSDoc):\n${cited.join('\n')}`,
    );
  console.log(
    `    ${declarations.length} declaration files: no spec/partner-api.md, contract.md, ../shared/ or "spec §N"`,
  );

  section('consumer project WITHOUT msw and ioredis: ESM, CJS (with ./redis), crp-sandbox bin, types (nodenext)');
  const consumer = join(work, 'consumer');
  cpSync(join(root, 'test', 'package', 'consumer'), consumer, { recursive: true });
  // The type samples are written once, as ESM (.mts); their CommonJS twins (.cts) are the same code,
  // which tsc (nodenext) resolves through the require condition's .d.cts.
  for (const name of ['types', 'types-otel']) {
    writeFileSync(
      join(consumer, `${name}.cts`),
      `// ${name}.mts, copied by scripts/check-package.mjs to be compiled as CommonJS.\n${readFileSync(join(consumer, `${name}.mts`), 'utf8')}`,
    );
  }
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: consumer });
  for (const peer of ['msw', 'ioredis', '@opentelemetry/api']) {
    if (existsSync(join(consumer, 'node_modules', peer)))
      throw new Error(`${peer} was installed with the package: it must be an optional peer dependency`);
  }
  const installed = readFileSync(join(consumer, 'package-lock.json'), 'utf8');
  console.log(
    `    installed: ${Object.keys(JSON.parse(installed).packages)
      .filter(Boolean)
      .map((p) => p.replace('node_modules/', ''))
      .join(', ')}`,
  );
  show(sh(process.execPath, ['esm.mjs'], { cwd: consumer }));
  show(sh(process.execPath, ['cjs.cjs'], { cwd: consumer }));
  show(sh(process.execPath, ['--input-type=module', '-e', OPENAPI_ESM], { cwd: consumer }));
  show(sh(process.execPath, ['-e', OPENAPI_CJS], { cwd: consumer }));
  show(await crpSandboxBin(consumer));
  // The crp bin starts from the installed package, with its own dependencies (csv-parse, cli-progress).
  const crpHelp = sh(join(consumer, 'node_modules', '.bin', 'crp'), ['--help'], { cwd: consumer });
  if (!/^Usage: crp /.test(crpHelp)) throw new Error(`crp --help printed:\n${crpHelp}`);
  console.log('    crp (bin): --help runs from the installed package');
  typeCheck(consumer, ['types.mts', 'types.cts', 'namespaces.mts']);
  console.log(
    `    tsc ${tscVersion()} (nodenext, strict, skipLibCheck false, no msw): types.mts (import condition), types.cts (require condition) and namespaces.mts (every namespace) type-check`,
  );

  section('consumer project WITH msw: sandbox.mswHandlers() from ESM and CJS');
  const mswVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'msw', 'package.json'), 'utf8')).version;
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `msw@${mswVersion}`], { cwd: consumer });
  show(sh(process.execPath, ['esm.mjs'], { cwd: consumer, env: { ...process.env, WITH_MSW: '1' } }));
  show(sh(process.execPath, ['cjs.cjs'], { cwd: consumer, env: { ...process.env, WITH_MSW: '1' } }));
  typeCheck(consumer, ['types.mts', 'types.cts', 'msw-types.mts']);
  console.log("    tsc: with msw installed, sandbox.mswHandlers() is msw's HttpHandler[] and goes to setupServer()");

  section('consumer project WITH @opentelemetry/api: ./otel from ESM and CJS, types (nodenext)');
  const otelApi = JSON.parse(
    readFileSync(join(root, 'node_modules', '@opentelemetry', 'api', 'package.json'), 'utf8'),
  ).version;
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `@opentelemetry/api@${otelApi}`], {
    cwd: consumer,
  });
  show(sh(process.execPath, ['otel.mjs'], { cwd: consumer }));
  show(sh(process.execPath, ['otel.cjs'], { cwd: consumer }));
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['types-otel.mts', 'types-otel.cts'],
    }),
  );
  sh(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer]);
  console.log(
    `    tsc (module nodenext) with @opentelemetry/api ${otelApi}: types-otel.mts and types-otel.cts type-check`,
  );

  // Node before 20.19 cannot require() ESM: the CJS build must not need to (ky and p-retry are
  // inlined). Without msw: msw 2.15's own CJS build requires an ESM-only package, so msw needs
  // Node >= 20.19 for sandbox.mswHandlers() (see docs/runtimes.md).
  section(`consumer project on Node ${OLD_NODE} (no require(esm)), without msw: CJS and ESM`);
  sh('npm', ['uninstall', '--no-audit', '--no-fund', 'msw'], { cwd: consumer });
  const old = ['--yes', '-p', `node@${OLD_NODE}`, '--', 'node'];
  const version = sh(
    'npx',
    [...old, '-p', 'process.version + " require(esm): " + Boolean(process.features.require_module)'],
    { cwd: consumer },
  )
    .trim()
    .split('\n')
    .pop();
  console.log(`    ${version}`);
  show(sh('npx', [...old, 'cjs.cjs'], { cwd: consumer }));
  show(sh('npx', [...old, 'esm.mjs'], { cwd: consumer }));
  show(sh('npx', [...old, 'otel.cjs'], { cwd: consumer }));

  console.log(`\ncheck:package: all good (${((Date.now() - started) / 1000).toFixed(1)}s)`);
} catch (error) {
  console.error(`\ncheck:package FAILED: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Type-check `files` as a strict consumer would, our declarations included (skipLibCheck false). */
function typeCheck(consumer, files) {
  const compilerOptions = {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  sh(process.execPath, [tsc, '-p', consumer]);
}

/** Start the installed bin on a free port, read the key and URL it prints, call the API, stop it. */
function crpSandboxBin(consumer) {
  return new Promise((done, reject) => {
    const child = spawn(join(consumer, 'node_modules', '.bin', 'crp-sandbox'), ['--port', '0', '--seed', '5'], {
      cwd: consumer,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`crp-sandbox printed no key within 10 s:\n${out}`));
    }, 10_000);
    child.stderr.on('data', (d) => (out += d));
    child.stdout.on('data', async (d) => {
      out += d;
      const url = /PARTNER_API_BASE_URL=(\S+)/.exec(out)?.[1];
      const key = /PARTNER_API_KEY=(\S+)/.exec(out)?.[1];
      if (!url || !key || child.killed) return;
      clearTimeout(timer);
      try {
        const response = await fetch(`${url}/partner/v1/summary`, { headers: { authorization: `Bearer ${key}` } });
        if (response.status !== 200) throw new Error(`crp-sandbox answered ${response.status}`);
        child.kill('SIGTERM');
        child.once('exit', (code, signal) =>
          done(
            `crp-sandbox (bin, no msw): served GET /partner/v1/summary -> 200, stopped on SIGTERM (exit ${code ?? signal})`,
          ),
        );
      } catch (error) {
        child.kill('SIGKILL');
        reject(error);
      }
    });
  });
}
