/**
 * `npm run bench`: builds the package once (into bench/.tmp/dist, with the repository's tsup
 * config), runs every case in turn, prints one table and writes bench/results.json.
 *
 *   npm run bench                    all cases
 *   npm run bench -- overhead lists  only these (ids: rate-budget shared-budget overhead lists startup bundle telemetry populate enroll-many events-failover)
 *
 * A run of some cases replaces those cases in bench/results.json and keeps the others, each case
 * with the date of the run that measured it (ratios are only ever taken within one case's run).
 */
import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, ensureBuilt } from './lib/paths.js';
import { fmt, renderTable, renderText, type CaseResult } from './lib/stats.js';

const CASES: Record<string, () => Promise<{ run(): Promise<CaseResult> }>> = {
  'rate-budget': () => import('./rate-budget.js'),
  'shared-budget': () => import('./shared-budget.js'),
  overhead: () => import('./overhead.js'),
  lists: () => import('./lists.js'),
  startup: () => import('./startup.js'),
  bundle: () => import('./bundle.js'),
  events: () => import('./events.js'),
  telemetry: () => import('./telemetry.js'),
  populate: () => import('./populate.js'),
  'enroll-many': () => import('./enroll-many.js'),
  'events-failover': () => import('./events-failover.js'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of wanted)
  if (!(name in CASES)) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(', ')}`);
const selected = wanted.length > 0 ? wanted : Object.keys(CASES);

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memory: fmt.mb(totalmem()).replace(' MB', ' MiB'),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString(),
};

const started = Date.now();
process.stderr.write(`bench: building the package (tsup → bench/.tmp/dist)\n`);
ensureBuilt();
type DatedCase = CaseResult & { measuredAt?: string | undefined };
const results: DatedCase[] = [];
for (const name of selected) {
  const caseStarted = Date.now();
  process.stderr.write(`bench: ${name} …\n`);
  const mod = await (CASES[name] as () => Promise<{ run(): Promise<CaseResult> }>)();
  const result = await mod.run();
  results.push({ ...result, measuredAt: new Date().toISOString() });
  process.stderr.write(`bench: ${name} done in ${fmt.ms(Date.now() - caseStarted)}\n${renderText([result])}\n\n`);
}
const totalMs = Date.now() - started;

const metIn = (cases: readonly CaseResult[]) => {
  const targets = cases.flatMap((r) => r.rows.filter((row) => row.met !== undefined));
  return { met: targets.filter((row) => row.met).length, of: targets.length };
};
const now = metIn(results);
console.log(`\n${renderText(results)}\n`);
for (const r of results) console.log(`${r.title}: ${r.setup}`);
console.log(
  `\nTargets met: ${now.met} of ${now.of}. Machine: ${machine.nproc} cores (${machine.cpu}), ${machine.memory}, Node ${machine.node}. Total ${fmt.ms(totalMs)}.`,
);

const file = join(BENCH_DIR, 'results.json');
const earlier =
  wanted.length > 0 && existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { machine?: { date?: string }; cases?: DatedCase[] })
    : {};
// A case kept from a run before cases were dated was measured when that run started.
const kept: DatedCase[] = (earlier.cases ?? []).map((c) => ({
  ...c,
  measuredAt: c.measuredAt ?? earlier.machine?.date,
}));
const merged = Object.keys(CASES).flatMap((id) => results.find((r) => r.id === id) ?? kept.filter((r) => r.id === id));
writeFileSync(
  file,
  `${JSON.stringify({ machine, totalMs, targets: metIn(merged), markdown: renderTable(merged), cases: merged }, null, 2)}\n`,
);
console.log(
  kept.length > 0
    ? `Updated ${results.map((r) => r.id).join(', ')} in bench/results.json (other cases kept from earlier runs)`
    : 'Wrote bench/results.json',
);
