/**
 * One vocabulary for moving the clock: the control API and the TypeScript APIs (sandbox.clock,
 * SandboxControl) each take `{ by_ms }` and `{ days, hours, minutes, ms }`, and refuse a mix of the two.
 */
import { describe, expect, it } from 'vitest';
import { SandboxControl, SandboxControlError, createSandbox } from '../../src/testing/index.js';
import { control } from './support/control.js';
import { openSandbox } from './support/harness.js';

const START = Date.parse('2026-12-01T09:00:00.000Z');
const at = (ms: number) => new Date(START + ms).toISOString();
const MIXED =
  'A duration is { by_ms } alone or { days, hours, minutes, ms } (which add up), not both; got by_ms with days, ms.';

describe('POST /_sandbox/clock/advance', () => {
  it('takes { by_ms }, the parts of a duration (which add up), or { to }', async () => {
    const h = await openSandbox('http');
    const advance = async (body: unknown) => control(h.baseUrl, 'POST', '/clock/advance', { body });
    expect((await advance({ by_ms: 1_000 })).body).toEqual({ now: at(1_000) });
    expect((await advance({ days: 1, hours: 2, minutes: 3, ms: 4 })).body).toEqual({
      now: at(1_000 + 86_400_000 + 7_200_000 + 180_000 + 4),
    });
    expect((await advance({ hours: 0.5 })).body).toEqual({
      now: at(1_000 + 86_400_000 + 7_200_000 + 180_000 + 4 + 1_800_000),
    });
    expect((await advance({ to: '2026-12-10T00:00:00Z' })).body).toEqual({ now: '2026-12-10T00:00:00.000Z' });
  });

  it('refuses a body that mixes the forms, an empty one, a bad part, and a year and a day, changing nothing', async () => {
    const h = await openSandbox('http');
    const refusal = async (body: unknown) => {
      const reply = await control(h.baseUrl, 'POST', '/clock/advance', { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      return reply.body.error as { code: string; field: string; message: string };
    };
    const mixed = await refusal({ by_ms: 3_600_000, days: 1, ms: 5 });
    expect(mixed).toEqual({
      code: 'validation_error',
      field: 'by_ms',
      message: `${MIXED} Send { "by_ms": 3600000 } or { "days": 1, "ms": 5 }.`,
    });
    expect(await refusal({ to: '2026-12-10T00:00:00Z', hours: 1 })).toMatchObject({
      field: 'hours',
      message: 'Send either to (an instant) or a duration (hours), not both.',
    });
    expect(await refusal({})).toMatchObject({
      field: '(body)',
      message: expect.stringContaining(
        'Say how far to move the clock. Send { "by_ms": <milliseconds> }, or any of { "days", "hours", "minutes", "ms" }',
      ),
    });
    expect(await refusal({ weeks: 1 })).toMatchObject({
      field: 'weeks',
      message: expect.stringContaining('"weeks" is not a recognised field.'),
    });
    expect(await refusal({ days: -1 })).toMatchObject({ field: 'days', message: 'days must be a number, 0 or more.' });
    expect(await refusal({ ms: '5' })).toMatchObject({
      field: 'ms',
      message: 'ms must be a number of milliseconds, 0 or more.',
    });
    expect(await refusal({ days: 367 })).toMatchObject({
      field: '(body)',
      message: 'A control call moves time at most 366 days; call again to go further.',
    });
    expect(h.sandbox.clock.now().toISOString()).toBe(at(0));
  });
});

describe('the TypeScript APIs take { by_ms } too', () => {
  it('sandbox.clock.advance: by_ms alone, or the parts; a mix throws before time moves', () => {
    const sandbox = createSandbox();
    expect(sandbox.clock.advance({ by_ms: 60_000 }).toISOString()).toBe(at(60_000));
    expect(sandbox.clock.advance({ minutes: 1, ms: 1 }).toISOString()).toBe(at(120_001));
    expect(() => sandbox.clock.advance({ by_ms: 1, days: 1, ms: 2 })).toThrow(MIXED);
    expect(sandbox.clock.now().toISOString()).toBe(at(120_001));
  });

  it('SandboxControl.advance: by_ms alone, or the parts; a mix is refused before anything is sent', async () => {
    const h = await openSandbox('http');
    const control = new SandboxControl({ baseUrl: h.baseUrl });
    expect((await control.advance({ by_ms: 5_000 })).toISOString()).toBe(at(5_000));
    expect((await control.advance({ hours: 1 })).toISOString()).toBe(at(3_605_000));
    const sent = h.sandbox.requestCount();
    const error = await control.advance({ by_ms: 1, days: 1, ms: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(SandboxControlError);
    expect((error as Error).message).toContain(MIXED);
    expect(h.sandbox.requestCount()).toBe(sent);
    expect((await control.now()).toISOString()).toBe(at(3_605_000));
  });
});
