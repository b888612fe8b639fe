/**
 * The wait between two passes. While changes flow it stays at `minInterval`; each pass that finds
 * nothing doubles it, up to `maxInterval`; it never runs past the moment a reconciliation is due.
 * A failed pass waits its interval even when a reconciliation is due: a failure that persists (a
 * page that leads back to one already read) must not be retried at once.
 */
export class Pacing {
  readonly #min: number;
  readonly #max: number;
  #interval: number;

  constructor(minInterval: number, maxInterval: number) {
    this.#min = minInterval;
    this.#max = maxInterval;
    this.#interval = minInterval;
  }

  /** The wait after a pass that delivered `found` events (or failed), with a reconciliation due in `untilDue` ms. */
  after(found: number, failed: boolean, untilDue: number): number {
    if (found > 0) this.#interval = this.#min;
    const wait = failed ? this.#interval : Math.max(0, Math.min(this.#interval, untilDue));
    if (found === 0) this.#interval = Math.min(this.#interval * 2, this.#max);
    return wait;
  }
}
