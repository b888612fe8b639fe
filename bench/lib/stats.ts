/** Timing, medians and the one results table. */

export const now = (): number => performance.now();

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (rank - lo);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Run `count` tasks with at most `concurrency` at once; resolves when all settled. */
export async function pool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<{ failures: number }> {
  let next = 0;
  let failures = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      try {
        await task(index);
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return { failures };
}

export const fmt = {
  ms: (ms: number): string =>
    ms >= 10_000
      ? `${(ms / 1000).toFixed(1)} s`
      : ms >= 1000
        ? `${(ms / 1000).toFixed(2)} s`
        : ms >= 10
          ? `${ms.toFixed(0)} ms`
          : `${ms.toFixed(2)} ms`,
  us: (ms: number): string => `${(ms * 1000).toFixed(0)} µs`,
  x: (ratio: number): string => `${ratio.toFixed(2)}×`,
  kb: (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`,
  mb: (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  int: (n: number): string => Math.round(n).toLocaleString('en-US'),
};

/** One line of the table. `target`/`met` only on the rows a target applies to. */
export interface Row {
  variant: string;
  result: string;
  target?: string;
  met?: boolean;
}

/** What every case file returns. */
export interface CaseResult {
  id: string;
  title: string;
  /** How to read it: conditions (window, N, latency) in one line. */
  setup: string;
  rows: Row[];
  /** Raw figures for results.json. */
  data: unknown;
}

export function renderTable(cases: readonly CaseResult[]): string {
  const lines: string[] = [];
  const header = ['case', 'variant', 'result', 'target', 'met'];
  const body: string[][] = [];
  for (const c of cases) {
    c.rows.forEach((row, i) => {
      body.push([
        i === 0 ? c.title : '',
        row.variant,
        row.result,
        row.target ?? '',
        row.met === undefined ? '' : row.met ? 'yes' : '**NO**',
      ]);
    });
  }
  lines.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
  for (const cells of body) lines.push(`| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
  return lines.join('\n');
}

/** A text-mode table for the terminal (same content as the markdown one). */
export function renderText(cases: readonly CaseResult[]): string {
  const body: string[][] = [['case', 'variant', 'result', 'target', 'met']];
  for (const c of cases) {
    c.rows.forEach((row, i) => {
      body.push([
        i === 0 ? c.title : '',
        row.variant,
        row.result,
        row.target ?? '',
        row.met === undefined ? '' : row.met ? 'yes' : 'NO',
      ]);
    });
  }
  const widths = body[0]!.map((_, col) => Math.max(...body.map((r) => (r[col] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(body[0]!), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of body.slice(1)) out.push(line(r));
  return out.join('\n');
}
