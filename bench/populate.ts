/**
 * Case: the sandbox at full scale. 10,000 stores and 1,000,000 bookings populated in one call
 * (time and peak RSS of a fresh process holding them), then the cost of a page of 200 bookings
 * and of 1,000 change-log entries at the start of the lists and at their millionth item. Runs
 * in its own child process (this file again, BENCH_POPULATE_CHILD=1) so RSS is the sandbox's alone.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTesting } from './lib/paths.js';
import { fmt, median, type CaseResult } from './lib/stats.js';

const LOCATIONS = Number(process.env.BENCH_POPULATE_LOCATIONS ?? 10_000);
const PER_LOCATION = Number(process.env.BENCH_POPULATE_PER_LOCATION ?? 100);
const SAMPLES = 40;
const TIME_TARGET_MS = 10_000;
const RSS_TARGET = 1024 * 1024 * 1024;

interface Measured {
  populateMs: number;
  populateCpuMs: number;
  reservations: number;
  changes: number;
  rssAfter: number;
  rssPeak: number;
  pageFirstMs: number;
  pageLastMs: number;
  changesFirstMs: number;
  changesLastMs: number;
}

/** In the child: populate, then time pages at both ends through the sandbox's fetch handler. */
async function measure(): Promise<Measured> {
  const { createSandbox } = await loadTesting();
  const sandbox = createSandbox({ seed: 11 });
  const key = sandbox.issueKey({ rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { reservations } = sandbox.populate(key, { locations: LOCATIONS, reservationsPerLocation: PER_LOCATION });
  const populateMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  // CPU time of every thread (GC helpers included): what the work costs when the machine is busy.
  const populateCpuMs = (cpu.user + cpu.system) / 1000;
  const rssAfter = process.memoryUsage().rss;

  const get = async (
    path: string,
  ): Promise<{ ms: number; body: { items: unknown[]; next_cursor?: string | null; next_after?: number | null } }> => {
    const t = performance.now();
    const response = await sandbox.handle(
      new Request(`http://bench.invalid${path}`, { headers: { authorization: `Bearer ${key}` } }),
    );
    const body = (await response.json()) as { items: unknown[] };
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t, body };
  };
  // Pages at the start, then the last pages of the whole list (walked there, as a client would).
  const first: number[] = [];
  const last: number[] = [];
  let cursor: string | null | undefined = null;
  let seen = 0;
  do {
    const page = await get(`/partner/v1/reservations?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    seen += page.body.items.length;
    if (first.length < SAMPLES) first.push(page.ms);
    if (seen > reservations - SAMPLES * 200) last.push(page.ms);
    cursor = page.body.next_cursor;
  } while (cursor);
  const rssPeak = process.resourceUsage().maxRSS * 1024;
  // The last seq, found by bisection (listing 1.5 million changes would inflate the figures).
  let lo = 0;
  let hi = 2 ** 31;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (sandbox.inspect.changes(key, { after: mid, limit: 1 }).length > 0) lo = mid + 1;
    else hi = mid;
  }
  const changesAt = async (after: number) => {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) times.push((await get(`/_sandbox/changes?after=${after}&limit=1000`)).ms);
    return median(times);
  };
  return {
    populateMs,
    populateCpuMs,
    reservations,
    changes: lo,
    rssAfter,
    rssPeak,
    pageFirstMs: median(first),
    pageLastMs: median(last),
    changesFirstMs: await changesAt(0),
    changesLastMs: await changesAt(lo - 1000),
  };
}

export async function run(): Promise<CaseResult> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_POPULATE_CHILD: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const m = await new Promise<Measured>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Measured));
    child.once('exit', (code) => reject(new Error(`populate child exited with ${code}`)));
  });
  const pageRatio = m.pageLastMs / m.pageFirstMs;
  const changesRatio = m.changesLastMs / m.changesFirstMs;
  return {
    id: 'populate',
    title: 'Sandbox at scale',
    setup: `${fmt.int(LOCATIONS)} stores × ${PER_LOCATION} bookings in one populate() (built package, fresh process); pages of 200 bookings and of 1,000 changes timed through sandbox.handle(), median of ${SAMPLES} at each end`,
    rows: [
      {
        variant: `populate ${fmt.int(m.reservations)} bookings`,
        result: `${fmt.ms(m.populateMs)} (CPU ${fmt.ms(m.populateCpuMs)})`,
        target: `≤ ${fmt.ms(TIME_TARGET_MS)}`,
        met: m.populateMs <= TIME_TARGET_MS,
      },
      {
        variant: 'peak RSS holding them',
        result: fmt.mb(m.rssPeak),
        target: '≤ 1024 MB',
        met: m.rssPeak <= RSS_TARGET,
      },
      {
        variant: 'page of 200: first vs millionth booking',
        result: `${fmt.ms(m.pageFirstMs)} vs ${fmt.ms(m.pageLastMs)} (${fmt.x(pageRatio)})`,
        target: '≤ 1.5×',
        met: pageRatio <= 1.5,
      },
      {
        variant: `change log (${fmt.int(m.changes)}): 1,000 at the start vs the end`,
        result: `${fmt.ms(m.changesFirstMs)} vs ${fmt.ms(m.changesLastMs)} (${fmt.x(changesRatio)})`,
        target: '≤ 1.5×',
        met: changesRatio <= 1.5,
      },
    ],
    data: m,
  };
}

if (process.env.BENCH_POPULATE_CHILD === '1') {
  const result = await measure();
  process.send?.(result, () => process.exit(0));
}
