/**
 * One pending timer that can be moved, and that keeps the process alive only while callers wait
 * on it (a limiter left idle must never hold the event loop open).
 */
export class Alarm {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private firesAt = Number.POSITIVE_INFINITY;
  private keepAlive = false;

  constructor(
    private readonly fire: () => void,
    private readonly clock: () => number,
  ) {}

  /**
   * Fire at `at` (clock ms) or earlier. A timer already due by then is kept: the owner re-arms
   * when it fires early. Every response moves the target a little; a new timer for each one cost
   * ~0.3 ms per call (Node makes a timer list per distinct delay and keeps it until it expires).
   */
  set(at: number): void {
    if (this.handle !== undefined && this.firesAt <= at) return;
    this.clear();
    const delay = Math.max(0, at - this.clock());
    this.firesAt = this.clock() + delay;
    this.handle = setTimeout(() => {
      this.handle = undefined;
      this.firesAt = Number.POSITIVE_INFINITY;
      this.fire();
    }, delay);
    this.applyRef();
  }

  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
    this.firesAt = Number.POSITIVE_INFINITY;
  }

  /** Hold the event loop open while true (someone waits for this alarm). */
  hold(keepAlive: boolean): void {
    this.keepAlive = keepAlive;
    this.applyRef();
  }

  private applyRef(): void {
    const handle = this.handle as { ref?: () => void; unref?: () => void } | undefined;
    if (this.keepAlive) handle?.ref?.();
    else handle?.unref?.();
  }
}
