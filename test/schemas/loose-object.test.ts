import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';

const booking = z.looseObject({
  reservation_id: z.string(),
  party_size: z.number(),
  visit_at: z.nullable(z.string()),
  note: z.optional(z.string()),
  creator: z.looseObject({ handle: z.string(), platforms: z.array(z.string()) }),
});

const good = {
  reservation_id: 'res_1',
  party_size: 2,
  visit_at: null,
  creator: { handle: '@a', platforms: ['tiktok'], tier: 'gold' },
  new_field: 7,
};

describe.each([
  ['default', false],
  ['jitless (where eval is not allowed)', true],
])('looseObject parsed by zod, %s', (_name, jitless) => {
  it('keeps fields it does not know, at every level, and leaves out absent optionals', () => {
    const parsed = booking.safeParse(good, { jitless });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(good);
    expect(parsed.data && 'note' in parsed.data).toBe(false);
  });

  it('reports the path of a field in the wrong form', () => {
    const parsed = booking.safeParse({ ...good, creator: { handle: '@a', platforms: [1] } }, { jitless });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['creator', 'platforms', 0]);
    expect(booking.safeParse({ ...good, party_size: '2' }, { jitless }).error?.issues[0]?.path).toEqual(['party_size']);
    expect(booking.safeParse(null, { jitless }).success).toBe(false);
  });
});

it('is a zod/mini object to zod', () => {
  expect(booking).toBeInstanceOf(z.ZodMiniObject);
  expect(Object.keys(booking.shape)).toEqual(['reservation_id', 'party_size', 'visit_at', 'note', 'creator']);
});
