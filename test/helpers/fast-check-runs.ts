/**
 * How many runs a property test makes, and the run to replay: `FC_NUM_RUNS` for a longer run,
 * `FC_SEED` (with `FC_PATH`, both printed by fast-check on a failure) to replay a counterexample.
 */
export function fastCheckRuns(defaultRuns: number): { numRuns: number; seed?: number; path?: string } {
  const { FC_NUM_RUNS, FC_SEED, FC_PATH } = process.env;
  return {
    numRuns: FC_NUM_RUNS ? Number(FC_NUM_RUNS) : defaultRuns,
    ...(FC_SEED ? { seed: Number(FC_SEED) } : {}),
    ...(FC_SEED && FC_PATH ? { path: FC_PATH } : {}),
  };
}
