import type { RateLimitState } from './headers.js';

/** What one response tells the budget. */
export interface Observation {
  /** Limiter clock when the response was read. */
  now: number;
  /** A lower bound on when its request was sent (pins which window it was counted in). */
  sentAt: number;
  /** Its request still counts as running (observed before the task settled). */
  selfInFlight: boolean;
  /** The budget the response shows, if any. */
  state?: RateLimitState;
  /** A 429's Retry-After in ms: nothing is sent until then. */
  retryAfterMs?: number;
}

export type WaitReason = 'first-response' | 'retry-after' | 'budget' | 'queue';

export interface WaitForecast {
  reason: WaitReason;
  /** Expected wait in ms, when known. */
  expectedMs?: number;
}

/** Requests this process has started and finished (finished: settled, any outcome). */
export interface Counters {
  started: number;
  done: number;
}

/** Where the reservoir rules live: in this process, or shared through Redis. */
export interface Budget {
  observe(observation: Observation): void;
  /** A job took a place in the reservoir but was abandoned before sending: give the place back. */
  refund(): void;
  /** Why a call queued now behind `ahead` others would wait, or undefined when it would not. */
  forecast(now: number, ahead: number): WaitForecast | undefined;
  /** Why a call queued at `queuedAt` has waited, when the budget knows better than the forecast did. */
  explain(queuedAt: number): WaitReason | undefined;
  /** Hold the event loop open while calls wait for a refill. */
  hold(waiting: boolean): void;
  close(): Promise<void>;
}

/** What the limiter uses of a scheduler: LocalQueue in one process, Bottleneck with Redis. */
export interface Scheduler {
  schedule<T>(task: () => Promise<T>): Promise<T>;
  disconnect(flush?: boolean): Promise<void> | void;
}

/** A scheduler and the budget that paces it. */
export interface Engine {
  limiter: Scheduler;
  budget: Budget;
}
