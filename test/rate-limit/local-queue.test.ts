import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter } from '../../src/core/rate-limit/limiter.js';
import { LocalQueue } from '../../src/core/rate-limit/local-queue.js';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: (value: string) => void;
  let fail!: (error: Error) => void;
  const task = () => {
    log.push(name);
    return new Promise<string>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
  };
  return { task, release: () => release(name), fail: (error: Error) => fail(error) };
}

/** Let every pending microtask (and the ones they queue) run; no timer is involved. */
async function flush(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe('LocalQueue', () => {
  afterEach(() => vi.useRealTimers());

  it('starts jobs in the order they were scheduled, one at a time with maxConcurrent 1', async () => {
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 100 });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => gate(log, name));
    const results = jobs.map((job) => queue.schedule(job.task));
    await flush();
    expect(log).toEqual(['a']);
    jobs[0]!.release();
    await flush();
    expect(log).toEqual(['a', 'b']);
    jobs[1]!.release();
    await flush();
    expect(log).toEqual(['a', 'b', 'c']);
    jobs[2]!.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
  });

  it('starts every waiting job once maxConcurrent goes from 1 to null', async () => {
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 100 });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => gate(log, name));
    for (const job of jobs) void queue.schedule(job.task);
    await flush();
    expect(log).toEqual(['a']);
    queue.updateSettings({ maxConcurrent: null });
    await flush();
    expect(log).toEqual(['a', 'b', 'c', 'd']);
  });

  it('holds jobs while the reservoir is empty and lets exactly `delta` through per increment', async () => {
    const queue = new LocalQueue({ maxConcurrent: null, reservoir: 0 });
    const log: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) void queue.schedule(gate(log, name).task);
    await flush();
    expect(log).toEqual([]);
    queue.incrementReservoir(2);
    await flush();
    expect(log).toEqual(['a', 'b']);
    queue.incrementReservoir(1);
    await flush();
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('counts a started job against the reservoir even after it finished', async () => {
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 2 });
    const ran: number[] = [];
    const results = [1, 2, 3].map((n) => queue.schedule(async () => ran.push(n)));
    await Promise.all(results.slice(0, 2));
    await flush();
    expect(ran).toEqual([1, 2]);
    queue.incrementReservoir(1);
    await results[2];
    expect(ran).toEqual([1, 2, 3]);
  });

  it('takes negative increments into account: a debt must be paid back before the next job', async () => {
    const queue = new LocalQueue({ maxConcurrent: null, reservoir: 1 });
    const log: string[] = [];
    queue.incrementReservoir(-3);
    for (const name of ['a', 'b']) void queue.schedule(gate(log, name).task);
    await flush();
    expect(log).toEqual([]);
    queue.incrementReservoir(2); // reservoir 0
    await flush();
    expect(log).toEqual([]);
    queue.incrementReservoir(1); // reservoir 1
    await flush();
    expect(log).toEqual(['a']);
  });

  it('applies a negative increment at once, before jobs scheduled after it', async () => {
    const queue = new LocalQueue({ maxConcurrent: null, reservoir: 3 });
    const log: string[] = [];
    queue.incrementReservoir(-2);
    for (const name of ['a', 'b', 'c']) void queue.schedule(gate(log, name).task);
    await flush();
    expect(log).toEqual(['a']);
  });

  it('frees the slot of a task that rejects, or throws before returning a promise', async () => {
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 100 });
    const log: string[] = [];
    const a = gate(log, 'a');
    const first = queue.schedule(a.task);
    const second = queue.schedule(() => {
      log.push('b');
      throw new Error('sync');
    });
    const third = queue.schedule(async () => {
      log.push('c');
      return 'c';
    });
    await flush();
    a.fail(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await expect(second).rejects.toThrow('sync');
    await expect(third).resolves.toBe('c');
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('starts and settles a job on a free budget without any timer (the hot path)', async () => {
    vi.useFakeTimers();
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 100 });
    let ran = 0;
    for (let i = 0; i < 5; i++) {
      const result = queue.schedule(async () => ++ran);
      let settled: number | undefined;
      void result.then((value) => (settled = value));
      await flush();
      expect(settled).toBe(i + 1);
    }
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts nothing more after disconnect, lets running jobs finish, and keeps no timer', async () => {
    vi.useFakeTimers();
    const queue = new LocalQueue({ maxConcurrent: 1, reservoir: 100 });
    const log: string[] = [];
    const a = gate(log, 'a');
    const first = queue.schedule(a.task);
    void queue.schedule(gate(log, 'b').task);
    await flush();
    queue.disconnect();
    a.release();
    await expect(first).resolves.toBe('a');
    queue.incrementReservoir(10);
    queue.updateSettings({ maxConcurrent: null });
    void queue.schedule(gate(log, 'c').task);
    await flush();
    expect(log).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the local limiter on a free budget', () => {
  afterEach(() => vi.useRealTimers());

  it('runs each call without waiting on a timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    const limiter = createRateLimiter({ id: 'local-queue-hot-path', now: () => Date.now() });
    const headers = new Headers({ 'ratelimit-limit': '600', 'ratelimit-remaining': '599', 'ratelimit-reset': '60' });
    for (let i = 0; i < 20; i++) {
      let settled = false;
      void limiter.schedule(async () => ({ status: 200, headers })).then(() => (settled = true));
      // Fake timers never fire here: a call that needed one would still be pending.
      await flush();
      expect(settled).toBe(true);
    }
    await limiter.close();
  });
});
