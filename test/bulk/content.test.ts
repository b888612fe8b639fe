/** What "the same content" means for two rows of one id. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../src/bulk/content.js';

describe('a row content', () => {
  it('is its JSON with keys sorted at every depth and undefined members dropped, as JSON drops them', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
    expect(canonicalJson([undefined, 2])).toBe(JSON.stringify([undefined, 2]));
    expect(canonicalJson('Store 0 ')).not.toBe(canonicalJson('Store 0')); // the service compares exactly
    expect(canonicalJson({ name: 'a' })).not.toBe(canonicalJson({ Name: 'a' }));
  });

  it('tells apart what JSON would merge: NaN, Infinity, null, a bigint and its digits, a function', () => {
    const seen = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, 1n, '1', 1, () => 1].map((v) =>
      canonicalJson(v),
    );
    expect(new Set(seen).size).toBe(seen.length);
    expect(canonicalJson(Number.NaN)).toBe('{"number":"NaN"}');
    expect(canonicalJson(1n)).toBe('{"bigint":"1"}');
  });

  it('does not loop on a row that contains itself, and a shared (not cyclic) object is written each time', () => {
    const row: Record<string, unknown> = { id: 'a' };
    row.self = row;
    expect(canonicalJson(row)).toBe('{"id":"a","self":"[cycle]"}');
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('hashes to the SHA-256 of that JSON, lower-case hex', async () => {
    const row = {
      partner_location_id: 'bulk-0',
      name: 'Store 0, Main',
      address: { line1: '1 Main St', country: 'US' },
    };
    const expected = createHash('sha256').update(canonicalJson(row)).digest('hex');
    expect(await contentHash(row)).toBe(expected);
    expect(
      await contentHash({
        address: { country: 'US', line1: '1 Main St' },
        name: 'Store 0, Main',
        partner_location_id: 'bulk-0',
      }),
    ).toBe(expected);
    expect(await contentHash({ ...row, name: 'Store 0' })).not.toBe(expected);
  });
});
