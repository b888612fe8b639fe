/**
 * Responses are zod's own parse of the body (public `safeParse`, no check of ours beside it): a
 * field in the wrong form or missing is refused with its path, fields this version does not know
 * are kept, and an own `__proto__` key in the JSON never becomes a prototype.
 */
import { describe, expect, it } from 'vitest';
import { UnexpectedResponseError } from '../../src/index.js';
import { unknownField } from '../../src/schemas/unknown-field.js';
import { useScriptedServer } from '../transport/scripted-server.js';

const KEY = 'crp_test_responses-key-0123456789';
const { server, client } = useScriptedServer(KEY, { maxRetries: 0 });
const answer = (body: string) => server.script({ status: 200, body });

describe('a response body', () => {
  it('in the declared form comes back with every field, known or not, and the unknown ones readable', async () => {
    answer('{"surcharge_per_video_cents":250,"currency":"USD","tier":{"name":"gold"}}');
    const settings = await client().settings.get();
    expect(settings).toEqual({ surcharge_per_video_cents: 250, currency: 'USD', tier: { name: 'gold' } });
    expect(unknownField(settings, 'tier')).toEqual({ name: 'gold' });
  });

  it.each([
    ['a field in the wrong form', '{"surcharge_per_video_cents":"250","currency":"USD"}', 'surcharge_per_video_cents'],
    ['a missing field', '{"surcharge_per_video_cents":250}', 'currency'],
    ['an infinite-looking number', '{"surcharge_per_video_cents":1e999,"currency":"USD"}', 'surcharge_per_video_cents'],
    ['not an object', '[1,2]', '(body)'],
  ])('with %s is an UnexpectedResponseError naming the field', async (_what, body, field) => {
    answer(body);
    const error = await client()
      .settings.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain(`unexpected form: ${field}.`);
  });

  it('with an own __proto__ key: the key is dropped, no prototype is set', async () => {
    answer('{"__proto__":{"polluted":true},"surcharge_per_video_cents":1,"currency":"USD"}');
    const settings = await client().settings.get();
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
    expect((settings as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(settings, '__proto__')).toBe(false);
  });
});
