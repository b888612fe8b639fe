/**
 * Not a worker: the timing loop the per-call workers share. Each variant is warmed up, then they
 * run in rounds whose order rotates, so machine noise falls on every variant alike and no variant
 * always runs right after the same other one. Returns every per-call time (ms), by variant.
 */
import { now } from '../lib/stats.js';

export interface Rounds {
  warmup: number;
  rounds: number;
  perRound: number;
}

export async function timeInterleaved(
  variants: Record<string, () => Promise<unknown>>,
  { warmup, rounds, perRound }: Rounds,
): Promise<Record<string, number[]>> {
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const call of Object.values(variants)) for (let i = 0; i < warmup; i++) await call();
  for (let round = 0; round < rounds; round++) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of order) {
      const call = variants[name] as () => Promise<unknown>;
      const into = samples[name] as number[];
      for (let i = 0; i < perRound; i++) {
        const t = now();
        await call();
        into.push(now() - t);
      }
    }
  }
  return samples;
}
