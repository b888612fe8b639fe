import { MinHeap } from './min-heap.js';

/**
 * How far to move simulated time: `days`, `hours`, `minutes` and `ms`, which add up, or `by_ms`
 * alone (the control API's own word, so a body copied from a curl line works here too).
 */
export interface Duration {
  /** Whole or fractional days of 24 hours. */
  days?: number;
  /** Hours. */
  hours?: number;
  /** Minutes. */
  minutes?: number;
  /** Milliseconds. */
  ms?: number;
  /** Milliseconds, as `POST /_sandbox/clock/advance` takes them; never with the other parts. */
  by_ms?: number;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The parts of a duration that add up (`by_ms` stands alone). */
export const DURATION_PARTS = ['days', 'hours', 'minutes', 'ms'] as const;

/** A duration that mixes `by_ms` with the parts: which one was meant cannot be told. */
export class MixedDurationError extends TypeError {
  override readonly name = 'MixedDurationError';
}

export function durationMs(d: Duration): number {
  if (d.by_ms !== undefined) {
    const parts = DURATION_PARTS.filter((part) => d[part] !== undefined);
    if (parts.length > 0) {
      throw new MixedDurationError(
        `A duration is { by_ms } alone or { days, hours, minutes, ms } (which add up), not both; got by_ms with ${parts.join(', ')}. ` +
          `Send { "by_ms": ${d.by_ms} } or { ${parts.map((part) => `"${part}": ${d[part]}`).join(', ')} }.`,
      );
    }
    return d.by_ms;
  }
  return (d.days ?? 0) * DAY + (d.hours ?? 0) * HOUR + (d.minutes ?? 0) * MINUTE + (d.ms ?? 0);
}

interface TimedEvent {
  at: number;
  order: number;
  run: (subject: never, at: number) => void;
  subject: unknown;
}

/**
 * Simulated time. Bookings, visits and videos are events on this timeline; they happen only
 * when the clock is advanced past them, in time order (ties in the order they were scheduled).
 */
export class SimulatedClock {
  #now: number;
  #order = 0;
  readonly #queue = new MinHeap<TimedEvent>((a, b) => a.at < b.at || (a.at === b.at && a.order < b.order));

  constructor(start: number) {
    this.#now = start;
  }

  /** The current simulated time. */
  now(): Date {
    return new Date(this.#now);
  }

  /** The current simulated time in epoch milliseconds. */
  nowMs(): number {
    return this.#now;
  }

  /** Move time forward, running every event due on the way. Returns the new time. */
  advance(duration: Duration): Date {
    const ms = durationMs(duration);
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('clock.advance needs a duration of 0 or more');
    const target = this.#now + ms;
    for (let next = this.#queue.peek(); next && next.at <= target; next = this.#queue.peek()) {
      this.#queue.pop();
      this.#now = Math.max(this.#now, next.at);
      (next.run as (subject: unknown, at: number) => void)(next.subject, next.at);
    }
    this.#now = target;
    return this.now();
  }

  /**
   * Run `run(subject, at)` when simulated time reaches `at` (on the next advance if already past).
   * A shared `run` with a `subject` instead of a closure per event: populate schedules hundreds of
   * thousands, and a closure each (with its context) doubled what they cost the garbage collector.
   */
  schedule<S>(at: number, run: (subject: S, at: number) => void, subject: S): void;
  schedule(at: number, run: () => void): void;
  schedule(at: number, run: (subject: never, at: number) => void, subject?: unknown): void {
    this.#queue.push({ at, order: this.#order++, run, subject });
  }

  /** Events waiting on the timeline. */
  get pendingEvents(): number {
    return this.#queue.size;
  }
}
