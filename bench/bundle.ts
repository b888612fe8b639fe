/**
 * Case 6, bundle size: an app that constructs a client and makes one call, bundled by esbuild
 * (platform node, bundle, minify; node built-ins external) and gzipped, vs openai, stripe and
 * Octokit with its throttling, retry and paginate-rest plugins.
 */
import { join } from 'node:path';
import { bundleSize, featureInputs, ourApp, ourRedisApp, type BundleSize } from './lib/bundle.js';
import { BUILD, ROOT, sdkEntry } from './lib/paths.js';
import { fmt, type CaseResult, type Row } from './lib/stats.js';

/** Issue #24's goal: smaller than every peer that covers its API in full. */
export const TARGET_BYTES = 30 * 1024;

const OTHERS: Record<string, string> = {
  openai: `import OpenAI from 'openai';
const client = new OpenAI();
console.log(await client.models.retrieve('gpt-4o'));`,
  stripe: `import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_KEY);
console.log(await stripe.customers.retrieve('cus_1'));`,
  'octokit + throttling, retry, paginate': `import { Octokit } from '@octokit/core';
import { throttling } from '@octokit/plugin-throttling';
import { retry } from '@octokit/plugin-retry';
import { paginateRest } from '@octokit/plugin-paginate-rest';
const MyOctokit = Octokit.plugin(throttling, retry, paginateRest);
const octokit = new MyOctokit({ auth: process.env.GH_TOKEN, throttle: { onRateLimit: () => true, onSecondaryRateLimit: () => true } });
console.log(await octokit.request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' }));`,
};

const top = (b: BundleSize) =>
  b.top
    .slice(0, 4)
    .map((t) => `${t.input} ${fmt.kb(t.bytes)}`)
    .join(', ');

export async function run(): Promise<CaseResult> {
  const ours = await bundleSize(ourApp(sdkEntry()));
  // The built package inlines zod and p-retry; the same app from source tells where the bytes come from.
  const composition = await bundleSize(ourApp(join(ROOT, 'src/index.ts')));
  const withRedis = await bundleSize(ourRedisApp(sdkEntry(), join(BUILD, 'redis/index.js')));
  const others: Record<string, BundleSize> = {};
  for (const [name, app] of Object.entries(OTHERS)) others[name] = await bundleSize(app);
  const rows: Row[] = [
    {
      variant: '@crp/partner-sdk',
      result: `${fmt.kb(ours.gzip)} gzip (${fmt.kb(ours.minified)} min) · biggest: ${top(ours)}`,
      target: `≤ ${fmt.kb(TARGET_BYTES)} gzip`,
      met: ours.gzip <= TARGET_BYTES,
    },
    {
      variant: '@crp/partner-sdk, built from source (composition)',
      result: `${fmt.kb(composition.gzip)} gzip (${fmt.kb(composition.minified)} min) · ${top(composition)} · modules of events, bulk, cli, otel, redis: ${featureInputs(composition).join(', ') || 'none'}`,
      target: 'no feature module',
      met: featureInputs(composition).length === 0,
    },
    {
      variant: '@crp/partner-sdk + /redis shared budget',
      result: `${fmt.kb(withRedis.gzip)} gzip (${fmt.kb(withRedis.minified)} min); bottleneck and ioredis load from node_modules at run time`,
    },
    ...Object.entries(others).map(([name, b]) => ({
      variant: name,
      result: `${fmt.kb(b.gzip)} gzip (${fmt.kb(b.minified)} min) = ${fmt.x(b.gzip / ours.gzip)} ours`,
    })),
  ];
  return {
    id: 'bundle',
    title: '6. Bundle size',
    setup:
      'esbuild --bundle --minify --platform=node --format=esm (node built-ins external), then gzip -9; app = construct + one call',
    rows,
    data: { ours, composition, withRedis, others },
  };
}
