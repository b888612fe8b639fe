import type { ClientClock } from '../index.js';

/**
 * A step this large between two readings is the service's clock (or the machine's) being set, not
 * latency: the new reading replaces the estimate even when it is behind it.
 */
const STEP_MS = 5_000;

/**
 * The service's time, as its responses tell it (`Date` header, `summary.generated_at`), kept as an
 * offset from the client's monotonic reading (so setting the machine's clock moves nothing). The
 * watcher compares with the service's data (the billing month, whether a visit is due, when it
 * found a change) by this time, so a machine whose clock is wrong, or a sandbox running on its own
 * date, changes nothing; the client's clock only measures intervals.
 *
 * Both sources have one-second resolution and arrive after the network's delay, so every reading
 * is at or a little behind the service's time: the estimate keeps the latest of them and moves back
 * only for a step (a clock being set).
 */
export class ServiceClock {
  readonly #local: ClientClock;
  /** Service time minus the client's monotonic reading, in ms; undefined before the first response. */
  #offset: number | undefined;

  constructor(local: ClientClock) {
    this.#local = local;
  }

  /** True once a response has told the service's time. */
  get known(): boolean {
    return this.#offset !== undefined;
  }

  /** The service's time now (epoch ms): the client's until the first response. */
  now(): number {
    return this.#offset === undefined ? this.#local.now() : this.#local.monotonic() + this.#offset;
  }

  /** Take the service's time from a response: its `Date` header, or a UTC time it reported. */
  observe(headers: Headers | undefined, reported?: string): void {
    const at = [headers?.get('date'), reported].map((v) => (v ? Date.parse(v) : Number.NaN)).filter((v) => Number.isFinite(v));
    if (at.length === 0) return;
    const offset = Math.max(...at) - this.#local.monotonic();
    if (this.#offset === undefined || offset > this.#offset || offset < this.#offset - STEP_MS) this.#offset = offset;
  }
}
