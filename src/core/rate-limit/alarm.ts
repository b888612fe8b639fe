/**
 * One pending timer that can be moved, and that keeps the process alive only while callers wait
 * on it (a limiter left idle must never hold the event loop open).
 */
export class Alarm {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private keepAlive = false;

  constructor(
    private readonly fire: () => void,
    private readonly clock: () => number,
  ) {}

  /** Fire at `at` (clock ms), replacing any earlier setting. */
  set(at: number): void {
    this.clear();
    const delay = Math.max(0, at - this.clock());
    this.handle = setTimeout(() => {
      this.handle = undefined;
      this.fire();
    }, delay);
    this.applyRef();
  }

  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
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
