/**
 * The calls and lag of each kind of change, at a given fleet size, on the sandbox's simulated time
 * (the figures of docs/events.md's table; test/events/pass-cost.test.ts pins them at 10 stores).
 * Each pass opens with `/summary`, so the request log splits into passes; a pass that delivered
 * one kind of change alone shows what finding that kind costs. Lag is from the change's time in
 * the sandbox's change log to the event's `created_at`. Default options, in process, from source.
 *
 * The fleet is steady: each store gets `BENCH_VISITS` bookings a week (0.2 by default, some 300 a
 * week over 10,000 stores), so every kind of change comes up in a few simulated hours and each is
 * measured against a fleet of that size, not a week of traffic. Changes are looked up through an
 * index kept as the change log grows (one read of each change), so the run is linear in events.
 *
 *   npx tsx bench/event-costs.ts                 10,000 stores, 6 simulated hours
 *   BENCH_STORES=10 BENCH_HOURS=48 BENCH_VISITS=10 npx tsx bench/event-costs.ts
 */
import { PartnerClient } from '../src/index.js';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type Watcher } from '../src/events/index.js';
import { createSandbox } from '../src/testing/index.js';

const STORES = Number(process.env.BENCH_STORES ?? 10_000);
const HOURS = Number(process.env.BENCH_HOURS ?? 6);
const VISITS = Number(process.env.BENCH_VISITS ?? 0.2);
const MINUTE = 60_000;

function kindOf(event: PartnerEvent): string {
  if (event.type !== 'reservation.updated') return event.type === 'reservation.created' ? 'new booking' : 'new video';
  return 'acknowledged_kind' in event.previous ? 'acknowledgement' : `${event.previous.status}>${event.data.status}`;
}

interface PassLog {
  calls: number;
  kinds: string[];
  pass: string;
  /** The billing months the pass read (a month of a large fleet is many pages). */
  months: Set<string>;
}

const sandbox = createSandbox({
  seed: 13,
  rateLimitClock: 'simulated',
  now: '2026-11-30T00:00:00Z',
  visitsPerWeek: VISITS,
});
const key = sandbox.issueKey();
sandbox.populate(key, { locations: STORES, reservationsPerLocation: 2 });
const clock = {
  now: () => sandbox.clock.now().getTime(),
  sleep: async (ms: number, signal?: AbortSignal) => {
    sandbox.clock.advance({ ms });
    if (signal?.aborted) throw signal.reason;
  },
};
const passes: PassLog[] = [];
let watcher: Watcher | undefined;
const client = new PartnerClient({
  apiKey: key,
  baseUrl: 'https://bench.crp.test',
  clock,
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/summary')) passes.push({ calls: 0, kinds: [], pass: 'poll (not due)', months: new Set() });
    const current = passes.at(-1) as PassLog;
    if (firstSyncEnd === Number.POSITIVE_INFINITY && watcher?.stats.reconciliations) firstSyncEnd = clock.now();
    if (!path.endsWith('/acknowledge')) current.calls++;
    if (path.endsWith('/billing/monthly')) current.months.add(new URL(request.url).searchParams.get('month') ?? '');
    const last = watcher?.stats.lastPass;
    if (!path.endsWith('/summary') && last) current.pass = `${last.kind} (${last.reason})`;
    return sandbox.handle(request);
  },
});
const start = clock.now();
const end = start + HOURS * 60 * MINUTE;
watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), startFrom: 'now' });
const lags = new Map<string, number[]>();
/** The latest change of each booking (by type) and each video, read from the change log as it grows. */
const latest = new Map<string, { at: string }>();
let readTo = 0;
function latestChange(event: PartnerEvent): { at: string } | undefined {
  for (const c of sandbox.inspect.changes(key, { after: readTo })) {
    latest.set(c.type === 'video.published' ? `v|${c.video_id}` : `${c.type}|${c.reservation_id}`, c);
    readTo = c.seq;
  }
  return latest.get(
    event.type === 'video.published' ? `v|${event.data.video_id}` : `${event.type}|${event.data.reservation_id}`,
  );
}
let acknowledged = 0;
/** When the first sync ended: a change made while it read the whole fleet waits for it, not a pass's lag. */
let firstSyncEnd = Number.POSITIVE_INFINITY;
for await (const event of watcher) {
  const kind = kindOf(event);
  (passes.at(-1) as PassLog).kinds.push(kind);
  if (event.type === 'reservation.created' && acknowledged < 5) {
    acknowledged++;
    await client.reservations.acknowledge(event.data.reservation_id, 'acknowledged_self');
  }
  const change = latestChange(event);
  if (change && Date.parse(change.at) >= firstSyncEnd)
    lags.set(kind, [...(lags.get(kind) ?? []), Date.parse(event.created_at) - Date.parse(change.at)]);
  if (clock.now() >= end) break;
}
await client.close();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const rows = new Map<string, number[]>();
for (const p of passes.slice(1, -1)) {
  const label =
    p.kinds.length === 0
      ? p.pass.startsWith('reconciliation')
        ? `nothing new, ${p.pass}`
        : 'nothing new (poll)'
      : new Set(p.kinds).size === 1 && p.kinds.length === 1
        ? `${p.kinds[0]}, ${p.pass}`
        : undefined;
  if (label) rows.set(label, [...(rows.get(label) ?? []), p.calls]);
  if (p.pass.startsWith('reconciliation') && p.months.size >= 3)
    rows.set('month end (3 billing months), reconciliation', [
      ...(rows.get('month end (3 billing months), reconciliation') ?? []),
      p.calls,
    ]);
}
console.log(
  `${STORES} stores, ${HOURS} simulated hours, ${watcher.stats.calls} calls, ${passes.length} passes, ${watcher.stats.reconciliations} reconciliations`,
);
for (const [label, calls] of [...rows].sort())
  console.log(`calls  ${label}: median ${median(calls)}, max ${Math.max(...calls)} (${calls.length} passes)`);
for (const [kind, values] of [...lags].sort())
  console.log(
    `lag    ${kind}: median ${median(values) / 1000} s, max ${Math.max(...values) / 1000} s (${values.length})`,
  );
