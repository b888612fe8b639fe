import { afterEach, describe, expect, it, vi } from 'vitest';
import { Alarm } from '../../src/core/rate-limit/alarm.js';

describe('Alarm', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps one timer while the target only moves later, and fires by the earliest target', () => {
    vi.useFakeTimers({ now: 0 });
    const fire = vi.fn();
    const alarm = new Alarm(fire, Date.now);
    alarm.set(1000);
    for (let i = 1; i <= 100; i++) alarm.set(1000 + i);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(999);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('re-arms when the target moves earlier', () => {
    vi.useFakeTimers({ now: 0 });
    const fire = vi.fn();
    const alarm = new Alarm(fire, Date.now);
    alarm.set(5000);
    alarm.set(200);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(200);
    expect(fire).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('can be set again after it fired or was cleared', () => {
    vi.useFakeTimers({ now: 0 });
    const fire = vi.fn();
    const alarm = new Alarm(fire, Date.now);
    alarm.set(100);
    vi.advanceTimersByTime(100);
    alarm.set(300);
    vi.advanceTimersByTime(200);
    expect(fire).toHaveBeenCalledTimes(2);
    alarm.set(400);
    alarm.clear();
    alarm.set(500);
    vi.advanceTimersByTime(200);
    expect(fire).toHaveBeenCalledTimes(3);
  });
});
