import { validation } from '../api-error.js';
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
    summary: '{ "by_ms": n } or { "to": ISO }: move simulated time forward, running what falls due → { now }',
    handler: async ({ world, query, request }) => {
      noParams(query);
      const body = await readObject(request);
      const unknown = Object.keys(body).find((k) => k !== 'by_ms' && k !== 'to');
      if (unknown !== undefined) throw validation(unknown, `${JSON.stringify(unknown)} is not a recognised field. Send { "by_ms": <milliseconds> } or { "to": "<ISO 8601 instant>" }.`);
      const { by_ms: by, to } = body;
      if ((by === undefined) === (to === undefined)) throw validation('(body)', 'Send exactly one of by_ms (milliseconds to move on) or to (an ISO 8601 instant).');
      let ms: number;
      if (by !== undefined) {
        if (typeof by !== 'number' || !Number.isFinite(by) || by < 0) throw validation('by_ms', 'by_ms must be a number of milliseconds, 0 or more.');
        ms = by;
      } else {
        const target = typeof to === 'string' ? Date.parse(to) : Number.NaN;
        if (Number.isNaN(target)) throw validation('to', 'to must be an ISO 8601 instant such as 2026-12-08T09:00:00Z.');
        ms = target - world.clock.nowMs();
        if (ms < 0) throw validation('to', `to is before the sandbox's current time (${world.clock.now().toISOString()}); simulated time only moves forward.`);
      }
      // One call runs everything due on the way, blocking the server meanwhile: keep it to a year.
      if (ms > MAX_ADVANCE_MS) throw validation(by !== undefined ? 'by_ms' : 'to', 'A control call moves time at most 366 days; call again to go further.');
      return { body: { now: world.clock.advance({ ms }).toISOString() } };
    },
  },
];
