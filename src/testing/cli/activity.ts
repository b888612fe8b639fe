import type { Inspector } from '../inspect.js';
import type { SandboxClock } from '../emulator.js';

/**
 * A line now and then saying what happened to the key's account (from the change log), so that
 * whoever started the sandbox sees bookings happening. Returns a function that stops it.
 */
export function reportActivity(
  inspect: Inspector,
  clock: SandboxClock,
  key: string,
  print: (line: string) => void,
  everyMs = 2_000,
): () => void {
  let after = inspect.changes(key).at(-1)?.seq ?? 0;
  const timer = setInterval(() => {
    const changes = inspect.changes(key, { after });
    if (changes.length === 0) return;
    after = changes.at(-1)?.seq ?? after;
    const count = (test: (c: (typeof changes)[number]) => boolean) => changes.filter(test).length;
    const parts = [
      [count((c) => c.type === 'reservation.created'), 'new booking'],
      [count((c) => c.status === 'confirmed' && c.changed?.includes('status') === true), 'confirmed'],
      [count((c) => c.status === 'completed' && c.changed?.includes('status') === true), 'visited'],
      [
        count(
          (c) =>
            (c.status === 'no_show' || c.status === 'cancelled' || c.status === 'rejected') &&
            c.changed?.includes('status') === true,
        ),
        'no-show/cancelled/rejected',
      ],
      [count((c) => c.type === 'video.published'), 'video'],
    ] as const;
    const said = parts
      .filter(([n]) => n > 0)
      .map(([n, what]) => `${n} ${what}${n > 1 && (what === 'new booking' || what === 'video') ? 's' : ''}`);
    print(`[${clock.now().toISOString().slice(0, 16).replace('T', ' ')} simulated] ${said.join(', ')}`);
  }, everyMs);
  return () => clearInterval(timer);
}
