/**
 * examples/otel-console.ts: in-process with its console exporters (captured), and started with
 * tsx as a partner would run it.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTelemetry } from '@crp/partner-sdk/otel';
import { startOpenTelemetry, tracedJob } from '../../examples/otel-console.js';
import { address, weekly } from '../helpers/sdk-env.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

const root = resolve(import.meta.dirname, '../..');

describe('examples/otel-console.ts', () => {
  let env: ExampleEnv | undefined;
  const startExampleEnv = useExampleEnv();
  afterEach(() => vi.restoreAllMocks());

  it('prints a span per call under the job span, the retry and its wait, and the metrics at shutdown', async () => {
    env = await startExampleEnv({ seed: 4, visitsPerWeek: 8 });
    await env.client.locations.enroll({
      partner_location_id: 'otel-1',
      name: 'Otel Noodles',
      address: address(1),
      hours: { weekly },
    });
    env.sandbox.clock.advance({ days: 14 });
    const printed: string[] = [];
    vi.spyOn(console, 'dir').mockImplementation(
      (value: unknown) => void printed.push(inspect(value, { depth: 8, breakLength: Infinity })),
    );
    vi.spyOn(console, 'log').mockImplementation((value: unknown) => void printed.push(String(value)));
    const otel = startOpenTelemetry();
    const client = env.newClient({ telemetry: openTelemetry(), clock: fakeClock() });
    env.sandbox.faults.next({ status: 503, times: 1, path: '/partner/v1/summary' });
    const lines: string[] = [];
    await tracedJob(client, (line) => lines.push(line));
    await otel.shutdown();
    const output = printed.join('\n');

    const traceId = /^trace (\w{32})$/m.exec(lines.join('\n'))?.[1];
    expect(traceId).toBeDefined();
    expect(lines.join('\n')).toMatch(/read 4 bookings/);
    for (const name of ['reports.summary', 'reservations.list', 'locations.get', 'nightly-sync'])
      expect(output).toContain(`name: '${name}'`);
    // One trace: the job and its summary, two pages and get (a span's own traceId comes before its parent's context).
    expect(output.match(new RegExp(`traceId: '${traceId}',\\s+parentSpanContext`, 'g'))?.length).toBe(5);
    expect(output).toMatch(/name: 'crp\.retry'/);
    expect(output).toMatch(/'crp\.wait\.reason': 'backoff'/);
    expect(output).toMatch(/'error\.type': '404'/);
    for (const metric of [
      'crp.client.calls',
      'crp.client.call.duration',
      'crp.client.retries',
      'crp.client.rate_limit.remaining',
    ])
      expect(output).toContain(`name: '${metric}'`);
    expect(output).not.toContain(env.apiKey);
  });

  it('runs on its own with tsx and prints spans and metrics', { timeout: 30_000 }, async () => {
    env = await startExampleEnv({ seed: 5, visitsPerWeek: 8 });
    const { code, out } = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'examples', 'otel-console.ts')], {
        cwd: root,
        env: { ...process.env, PARTNER_API_KEY: env!.apiKey, PARTNER_API_BASE_URL: env!.baseUrl, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('close', (exitCode) => done({ code: exitCode, out: text }));
    });
    expect(out).toMatch(/summary: \d+ stores/);
    expect(out).toMatch(/name: 'reports\.summary'/);
    expect(out).toMatch(/kind: 2/); // SpanKind.CLIENT
    expect(out).toMatch(/'url\.template': '\/partner\/v1\/summary'/);
    expect(out).toMatch(/name: 'crp\.client\.calls'/);
    expect(out).not.toContain(env.apiKey);
    expect(code).toBe(0);
  });
});
