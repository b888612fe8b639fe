/**
 * Case 5, start-up: a fresh `node` process that imports a client and constructs it, against bare
 * node and the same for openai, stripe and Octokit (core + throttling, retry, paginate-rest).
 * Ours is the BUILT package. Each script runs `RUNS` times, interleaved; median wall time from
 * spawn to exit, minus bare node's.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, sdkEntry, tmpDir } from './lib/paths.js';
import { startSandbox } from './lib/sandbox.js';
import { fmt, median, now, type CaseResult, type Row } from './lib/stats.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 11);
const TARGET_MS = 40;
const FIRST_CALL_TARGET_MS = 25;

/** Cold start to a first answer: import + construct + one call against a local sandbox, vs the same call with bare fetch. */
const FIRST_CALL: Record<string, string> = {
  'first call: bare fetch': `const r = await fetch(process.env.URL + '/partner/v1/summary', { headers: { authorization: 'Bearer ' + process.env.KEY } });
JSON.parse(await r.text());`,
  'first call: @crp/partner-sdk': `import { PartnerClient } from ${JSON.stringify(pathToFileURL(sdkEntry()).href)};
const client = new PartnerClient({ apiKey: process.env.KEY, baseUrl: process.env.URL });
await client.reports.summary();
await client.close();`,
};

export const SCRIPTS: Record<string, string> = {
  'bare node': '',
  '@crp/partner-sdk': `import { PartnerClient } from ${JSON.stringify(pathToFileURL(sdkEntry()).href)};
new PartnerClient({ apiKey: 'crp_test_startup', baseUrl: 'http://127.0.0.1:4010' });`,
  openai: `import OpenAI from 'openai';
new OpenAI({ apiKey: 'sk-startup' });`,
  stripe: `import Stripe from 'stripe';
new Stripe('sk_test_startup');`,
  'octokit + throttling, retry, paginate': `import { Octokit } from '@octokit/core';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import { paginateRest } from '@octokit/plugin-paginate-rest';
const MyOctokit = Octokit.plugin(throttling, retry, paginateRest);
new MyOctokit({ auth: 'startup', throttle: { onRateLimit: () => true, onSecondaryRateLimit: () => true } });`,
};

/** The other clients are installed by `npm run bench` (into bench/); run directly, a missing one is left out. */
const PEERS: Record<string, string> = {
  openai: 'openai',
  stripe: 'stripe',
  'octokit + throttling, retry, paginate': '@octokit/core',
};
function installed(name: string): boolean {
  const peer = PEERS[name];
  if (peer === undefined) return true;
  try {
    createRequire(join(BENCH_DIR, 'package.json')).resolve(peer);
    return true;
  } catch {
    return false;
  }
}

export async function run(): Promise<CaseResult> {
  const dir = tmpDir('startup');
  const sandbox = await startSandbox();
  const env = { ...process.env, URL: sandbox.url, KEY: await sandbox.key({ limit: 1_000_000, windowMs: 60_000 }) };
  const missing = Object.keys(SCRIPTS).filter((name) => !installed(name));
  const files = Object.entries({ ...SCRIPTS, ...FIRST_CALL })
    .filter(([name]) => !missing.includes(name))
    .map(([name, code], i) => {
      const file = join(dir, `s${i}.mjs`);
      writeFileSync(file, `${code}\n`);
      return { name, file };
    });
  const times: Record<string, number[]> = Object.fromEntries(files.map((f) => [f.name, []]));
  // One untimed pass: file-system caches warm for everyone.
  for (const f of files) spawnSync(process.execPath, [f.file], { stdio: 'ignore', env });
  for (let r = 0; r < RUNS; r++) {
    for (const f of r % 2 === 0 ? files : [...files].reverse()) {
      const t = now();
      const result = spawnSync(process.execPath, [f.file], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 30_000,
        env,
      });
      const elapsed = now() - t;
      if (result.status !== 0)
        throw new Error(
          `start-up script for ${f.name} failed (${result.status ?? result.signal}): ${result.stderr.toString()}`,
        );
      times[f.name]?.push(elapsed);
    }
  }
  await sandbox.close();
  const med = Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]));
  const bare = med['bare node'] ?? Number.NaN;
  const ours = (med['@crp/partner-sdk'] ?? Number.NaN) - bare;
  const firstFetch = med['first call: bare fetch'] ?? Number.NaN;
  const firstOurs = (med['first call: @crp/partner-sdk'] ?? Number.NaN) - firstFetch;
  const others = Object.entries(med).filter(
    ([name]) => name !== 'bare node' && name !== '@crp/partner-sdk' && !(name in FIRST_CALL),
  );
  const fastestOther = Math.min(...others.map(([, ms]) => ms - bare));
  const rows: Row[] = [
    { variant: 'bare node', result: `${fmt.ms(bare)} to exit` },
    {
      variant: '@crp/partner-sdk (built)',
      result: `+${fmt.ms(ours)} over bare node`,
      target: `≤ +${TARGET_MS} ms, below every other`,
      met: ours <= TARGET_MS && ours < fastestOther,
    },
    ...others.map(([name, ms]) => ({
      variant: name,
      result: `+${fmt.ms(ms - bare)} over bare node = ${fmt.x((ms - bare) / ours)} ours`,
    })),
    ...missing.map((name) => ({ variant: name, result: 'not installed (npm run bench installs it into bench/)' })),
    { variant: 'first call: bare fetch', result: `${fmt.ms(firstFetch)} spawn → answer → exit` },
    {
      variant: 'first call: @crp/partner-sdk (import + construct + call)',
      result: `+${fmt.ms(firstOurs)} over bare fetch`,
      target: `≤ +${FIRST_CALL_TARGET_MS} ms`,
      met: firstOurs <= FIRST_CALL_TARGET_MS,
    },
  ];
  return {
    id: 'startup',
    title: '5. Start-up',
    setup: `fresh \`node\` process: import + construct, wall time spawn → exit, median of ${RUNS} interleaved runs, minus bare node; cold start to a first answer from a local sandbox, minus the same with bare fetch`,
    rows,
    data: {
      runs: RUNS,
      medians: med,
      overBare: Object.fromEntries(Object.entries(med).map(([n, ms]) => [n, ms - bare])),
      samples: times,
    },
  };
}
