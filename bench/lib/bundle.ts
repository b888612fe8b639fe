/** esbuild (bundle, minify, platform node: built-ins stay external) + gzip of a tiny app. */
import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { BENCH_DIR } from './paths.js';

export interface BundleSize {
  minified: number;
  gzip: number;
  /** Largest inputs by bytes in the output, for telling where the size comes from. */
  top: Array<{ input: string; bytes: number }>;
  /** Every input with bytes in the output (paths as esbuild's metafile gives them). */
  inputs: string[];
}

/** The features beside the client: an app that only constructs a client and calls it carries none. */
const FEATURE_INPUT = /(^|\/)src\/(events|bulk|cli|otel|redis)\//;

/** Inputs of a bundle that belong to a feature (src/events, bulk, cli, otel, redis). */
export const featureInputs = (size: BundleSize): string[] => size.inputs.filter((input) => FEATURE_INPUT.test(input));

export async function bundleSize(app: string, external: string[] = []): Promise<BundleSize> {
  const result = await build({
    // Resolved from bench/: the clients compared against are installed there (bench/package.json).
    stdin: { contents: app, resolveDir: BENCH_DIR, sourcefile: 'app.mjs', loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external,
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input);
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length, top: topInputs(result.metafile), inputs };
}

function topInputs(meta: Metafile): Array<{ input: string; bytes: number }> {
  const output = Object.values(meta.outputs)[0];
  if (!output) return [];
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const name =
      match?.[1] ??
      (input.includes('bench/.tmp/dist') || input.includes('dist/')
        ? '(our dist)'
        : input.startsWith('src/')
          ? '(our code)'
          : input);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .map(([input, bytes]) => ({ input, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 6);
}

/** The app every client is measured with: construct, make one call, print it. */
export function ourApp(entry: string): string {
  return `import { PartnerClient } from ${JSON.stringify(entry)};
const client = new PartnerClient();
console.log(await client.locations.get('store-1'));`;
}

/** The same app sharing its rate budget through Redis (`@crp/partner-sdk/redis`). */
export function ourRedisApp(entry: string, redisEntry: string): string {
  return `import { PartnerClient } from ${JSON.stringify(entry)};
import { redisBudget } from ${JSON.stringify(redisEntry)};
const client = new PartnerClient({ rateLimit: { shared: redisBudget(process.env.REDIS_URL) } });
console.log(await client.locations.get('store-1'));`;
}
