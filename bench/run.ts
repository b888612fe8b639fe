/**
 * `npm run bench`: builds the package once (into bench/.tmp/dist, with the repository's tsup
 * config), runs every case in turn, prints one table and writes bench/results.json.
 *
 *   npm run bench                    all cases
 *   npm run bench -- overhead lists  only these (ids: rate-budget shared-budget overhead lists startup bundle telemetry populate enroll-many)
 */
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
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
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of wanted) if (!(name in CASES)) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(', ')}`);
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
const results: CaseResult[] = [];
for (const name of selected) {
  const caseStarted = Date.now();
  process.stderr.write(`bench: ${name} …\n`);
  const mod = await (CASES[name] as () => Promise<{ run(): Promise<CaseResult> }>)();
  const result = await mod.run();
  results.push(result);
  process.stderr.write(`bench: ${name} done in ${fmt.ms(Date.now() - caseStarted)}\n${renderText([result])}\n\n`);
}
const totalMs = Date.now() - started;

const targets = results.flatMap((r) => r.rows.filter((row) => row.met !== undefined));
const met = targets.filter((row) => row.met).length;
console.log(`\n${renderText(results)}\n`);
for (const r of results) console.log(`${r.title}: ${r.setup}`);
console.log(`\nTargets met: ${met} of ${targets.length}. Machine: ${machine.nproc} cores (${machine.cpu}), ${machine.memory}, Node ${machine.node}. Total ${fmt.ms(totalMs)}.`);

writeFileSync(
  join(BENCH_DIR, 'results.json'),
  `${JSON.stringify({ machine, totalMs, targets: { met, of: targets.length }, markdown: renderTable(results), cases: results }, null, 2)}\n`,
);
console.log('Wrote bench/results.json');
