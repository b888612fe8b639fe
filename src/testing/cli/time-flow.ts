import type { SandboxClock } from '../emulator.js';

/**
 * Simulated time that flows on its own: `pace` simulated ms per real ms, applied in small steps
 * (each step runs everything that fell due, in time order). Returns a function that stops it.
 */
export function flowTime(clock: SandboxClock, pace: number, stepMs = 250): () => void {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    clock.advance({ ms: (now - last) * pace });
    last = now;
  }, stepMs);
  return () => clearInterval(timer);
}

/** Time in fixed jumps: `minutes` of simulated time every `everyMs` real ms (the older form). */
export function stepTime(clock: SandboxClock, everyMs: number, minutes: number): () => void {
  const timer = setInterval(() => clock.advance({ minutes }), everyMs);
  return () => clearInterval(timer);
}

/** "an hour per second" for a pace of 3600. */
export function describePace(pace: number): string {
  const perSecond = pace; // simulated seconds per real second
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (perSecond >= size) {
      const n = Math.round((perSecond / size) * 10) / 10;
      return `${n === 1 ? 'one' : n} simulated ${name}${n === 1 ? '' : 's'} per real second`;
    }
  }
  return `${pace}× real time`;
}
