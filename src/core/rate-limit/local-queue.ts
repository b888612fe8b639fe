/**
 * The scheduler behind LocalBudget (one process, no Redis): FIFO, a concurrency cap and a
 * reservoir, with Bottleneck's meaning for each so budget-local.ts's accounting holds unchanged.
 *
 * Not Bottleneck light: it cost consumers ~10 kB gzip and ~15 ms of import, and its datastore
 * yields with setTimeout(0) several times per job (1 ms each once Node clamps it), which only
 * patching its internals avoided. Per-call overhead must stay within 1.10× a bare fetch, so a call
 * the budget allows here starts one microtask after `schedule`. There are no timers at all:
 * refills come from LocalBudget's Alarm, which also holds the process open while calls wait (a
 * pending promise does not). Bottleneck remains for the Redis-shared budget.
 */

interface Waiting {
  start: () => void;
  next: Waiting | undefined;
}

export interface LocalQueueSettings {
  /** Jobs registered and not yet settled, at most; null for no cap. */
  maxConcurrent: number | null;
}

export class LocalQueue {
  private maxConcurrent: number | null;
  private reservoir: number;
  private running = 0;
  // A linked list: a long backlog drains in O(1) per job (Array#shift would copy it every time).
  private first: Waiting | undefined;
  private last: Waiting | undefined;
  private closed = false;

  constructor(options: LocalQueueSettings & { reservoir: number }) {
    this.maxConcurrent = options.maxConcurrent;
    this.reservoir = options.reservoir;
  }

  /** Run task in turn; its outcome is the returned promise's. */
  schedule<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Closed: the caller has already given up on this job (limiter.ts rejects it itself).
      if (this.closed) return;
      this.enqueue(() => {
        Promise.resolve()
          .then(task)
          .then(
            (value) => {
              this.release();
              resolve(value);
            },
            (error: unknown) => {
              this.release();
              reject(error);
            },
          );
      });
      this.drain();
    });
  }

  /** Applied at once: the reservoir may go below zero, and jobs then wait until it is back above. */
  incrementReservoir(delta: number): void {
    this.reservoir += delta;
    this.drain();
  }

  updateSettings(settings: LocalQueueSettings): void {
    this.maxConcurrent = settings.maxConcurrent;
    this.drain();
  }

  /** Named after Bottleneck's so one Engine type covers both; jobs not started never start. */
  disconnect(): void {
    this.closed = true;
    this.first = undefined;
    this.last = undefined;
  }

  private enqueue(start: () => void): void {
    const node: Waiting = { start, next: undefined };
    if (this.last) this.last.next = node;
    else this.first = node;
    this.last = node;
  }

  private release(): void {
    this.running -= 1;
    this.drain();
  }

  private drain(): void {
    while (this.first && this.reservoir > 0 && (this.maxConcurrent === null || this.running < this.maxConcurrent)) {
      const node = this.first;
      this.first = node.next;
      if (!this.first) this.last = undefined;
      // Registration, as in Bottleneck: the place is taken now, the task starts a microtask later.
      this.reservoir -= 1;
      this.running += 1;
      node.start();
    }
  }
}
