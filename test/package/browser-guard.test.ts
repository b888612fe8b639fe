/**
 * The browser guard in a real browser-like global scope, not stubbed globals: the SDK bundled as a
 * page or worker bundler would bundle it (esbuild, browser platform), evaluated in edge-runtime's VM
 * with `window` and `document` defined. (scripts/runtime-smoke.mjs does the same with the built dist.)
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { EdgeRuntime } from 'edge-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '@crp/partner-sdk/testing';

const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

describe('in a browser-like global scope (bundled SDK in edge-runtime)', () => {
  let code: string;
  let server: Awaited<ReturnType<ReturnType<typeof createSandbox>['listen']>>;
  let apiKey: string;
  beforeAll(async () => {
    const bundled = await build({
      stdin: {
        contents: `import * as sdk from ${JSON.stringify(entry)}; globalThis.sdk = sdk;`,
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      logLevel: 'silent',
    });
    code = bundled.outputFiles[0]!.text;
    const sandbox = createSandbox({ seed: 5 });
    apiKey = sandbox.issueKey();
    server = await sandbox.listen(0);
  });
  afterAll(() => server?.close());

  const page = () =>
    new EdgeRuntime({ initialCode: `globalThis.window = globalThis; globalThis.document = {};\n${code}` });

  it('refuses to start, saying the key would be exposed and how to opt in', async () => {
    const result = (await page().evaluate(`(() => {
      try { new sdk.PartnerClient({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.url)} }); return 'started'; }
      catch (e) { return { name: e.name, code: e.code, isConfig: e instanceof sdk.ConfigurationError, message: e.message }; }
    })()`)) as { name: string; code: string; isConfig: boolean; message: string } | string;
    expect(result).toMatchObject({ name: 'ConfigurationError', code: 'configuration_error', isConfig: true });
    expect(typeof result === 'object' && result.message).toMatch(
      /running in a browser, where the API key would be exposed.*dangerouslyAllowBrowser: true/s,
    );
  });

  it('works with dangerouslyAllowBrowser: true', async () => {
    const total = await page().evaluate(`(async () => {
      const client = new sdk.PartnerClient({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.url)}, dangerouslyAllowBrowser: true });
      try { return (await client.reports.summary()).locations.total; } finally { await client.close(); }
    })()`);
    expect(total).toBe(0);
  });

  it('starts without the option where there is no window (a worker or edge function)', async () => {
    const environment = await new EdgeRuntime({ initialCode: code }).evaluate(
      `new sdk.PartnerClient({ apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(server.url)} }).environment`,
    );
    expect(environment).toBe('sandbox');
  });
});
