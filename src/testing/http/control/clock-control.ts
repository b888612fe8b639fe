import { validation } from '../api-error.js';
import { DURATION_PARTS, MixedDurationError, durationMs, type Duration } from '../../simulation/clock.js';
import { type ControlRoute, noParams, readObject } from './control-route.js';

const MAX_ADVANCE_MS = 366 * 24 * 3_600_000;

export const clockRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/clock',
    summary: '{ now }: the simulated time',
    handler: ({ world, query }) => {
      noParams(query);
      return { body: { now: world.clock.now().toISOString() } };
    },
  },
  {
    method: 'POST',
    path: '/clock/advance',
    summary:
      '{ "by_ms": n }, { "days", "hours", "minutes", "ms" } (they add up) or { "to": ISO }: move simulated time forward, running what falls due → { now }',
    handler: async ({ world, query, request }) => {
      noParams(query);
      const body = await readObject(request);
      const ms = body.to === undefined ? durationOf(body) : untilInstant(body, world.clock.nowMs(), world.clock.now());
      // One call runs everything due on the way, blocking the server meanwhile: keep it to a year.
      if (ms > MAX_ADVANCE_MS)
        throw validation(
          body.to !== undefined ? 'to' : body.by_ms !== undefined ? 'by_ms' : '(body)',
          'A control call moves time at most 366 days; call again to go further.',
        );
      return { body: { now: world.clock.advance({ ms }).toISOString() } };
    },
  },
];

const FORMS =
  'Send { "by_ms": <milliseconds> }, or any of { "days", "hours", "minutes", "ms" } (they add up), or { "to": "<ISO 8601 instant>" }.';
const DURATION_FIELDS: readonly string[] = ['by_ms', ...DURATION_PARTS];

function durationOf(body: Record<string, unknown>): number {
  const unknown = Object.keys(body).find((k) => !DURATION_FIELDS.includes(k));
  if (unknown !== undefined)
    throw validation(unknown, `${JSON.stringify(unknown)} is not a recognised field. ${FORMS}`);
  const given = DURATION_FIELDS.filter((k) => body[k] !== undefined);
  if (given.length === 0) throw validation('(body)', `Say how far to move the clock. ${FORMS}`);
  for (const field of given) {
    const value = body[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw validation(field, `${field} must be a number${field.endsWith('ms') ? ' of milliseconds' : ''}, 0 or more.`);
    }
  }
  try {
    return durationMs(body as Duration);
  } catch (error) {
    if (error instanceof MixedDurationError) throw validation('by_ms', error.message);
    throw error;
  }
}

function untilInstant(body: Record<string, unknown>, nowMs: number, now: Date): number {
  const other = Object.keys(body).find((k) => k !== 'to');
  if (other !== undefined) {
    throw validation(
      other,
      DURATION_FIELDS.includes(other)
        ? `Send either to (an instant) or a duration (${other}), not both.`
        : `${JSON.stringify(other)} is not a recognised field. ${FORMS}`,
    );
  }
  const target = typeof body.to === 'string' ? Date.parse(body.to) : Number.NaN;
  if (Number.isNaN(target)) throw validation('to', 'to must be an ISO 8601 instant such as 2026-12-08T09:00:00Z.');
  const ms = target - nowMs;
  if (ms < 0)
    throw validation(
      'to',
      `to is before the sandbox's current time (${now.toISOString()}); simulated time only moves forward.`,
    );
  return ms;
}
