/**
 * Not public: a budget another part of the package shares with the watcher (the Postgres mirror's
 * billing reads), passed in the watcher's options under this symbol, so both take their calls from
 * one share. A symbol of the global registry: the same in every bundle of the package.
 */
export const SHARED_BUDGET = Symbol.for('@crp/partner-sdk/events:budget');

/** What the watcher uses of a shared budget (a `CallBudget`, perhaps of another bundle). */
export interface SharedBudget {
  take(signal: AbortSignal): Promise<void>;
  waitedMs: number;
}

/** `options` with `budget` shared under `SHARED_BUDGET`. */
export const withSharedBudget = <T extends object>(options: T, budget: SharedBudget): T =>
  Object.assign(options, { [SHARED_BUDGET]: budget });
