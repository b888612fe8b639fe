/**
 * The Structured Field Values parser (RFC 8941) the rate-limit fields are read with, against the
 * RFC's own examples (sections 3.1 to 3.3.7) and the malformed forms it says to refuse: anything
 * malformed gives undefined, so the field is ignored whole.
 */
import { describe, expect, it } from 'vitest';
import { parseDictionary, parseList, type BareItem } from '../../src/core/rate-limit/structured-fields.js';

const int = (value: number): BareItem => ({ type: 'integer', value });
const str = (value: string): BareItem => ({ type: 'string', value });
const tok = (value: string): BareItem => ({ type: 'token', value });
const TRUE: BareItem = { type: 'boolean', value: true };

/** A list as plain values: [bare item, { param: bare item }]. */
function list(text: string) {
  return parseList(text)?.map((item) => [item.value, Object.fromEntries(item.params)]);
}

describe('parseList', () => {
  it('reads tokens, spaces and tabs after the comma (RFC 8941 3.1)', () => {
    expect(list('sugar, tea,\trum')).toStrictEqual([
      [tok('sugar'), {}],
      [tok('tea'), {}],
      [tok('rum'), {}],
    ]);
    expect(list('  *foo')).toStrictEqual([[tok('*foo'), {}]]);
    expect(list('')).toStrictEqual([]);
  });

  it('reads parameters, a parameter without a value being true (3.1.2)', () => {
    expect(list('abc;a=1;b=2; cde_456')).toStrictEqual([[tok('abc'), { a: int(1), b: int(2), cde_456: TRUE }]]);
    expect(list('"x";q=100;w=60;qu="requests"')).toStrictEqual([
      [str('x'), { q: int(100), w: int(60), qu: str('requests') }],
    ]);
  });

  it('reads integers, decimals, booleans and byte sequences (3.3)', () => {
    expect(list('42, -42, 4.5, ?1, ?0, :cHJldGVuZA==:')).toStrictEqual([
      [int(42), {}],
      [int(-42), {}],
      [{ type: 'decimal', value: 4.5 }, {}],
      [{ type: 'boolean', value: true }, {}],
      [{ type: 'boolean', value: false }, {}],
      [{ type: 'bytes', value: 'cHJldGVuZA==' }, {}],
    ]);
    expect(list('a;x=?0')).toStrictEqual([[tok('a'), { x: { type: 'boolean', value: false } }]]);
  });

  it('reads strings with their escapes (3.3.3)', () => {
    expect(list('"hello \\"world\\"", "a\\\\b", "~ !"')).toStrictEqual([
      [str('hello "world"'), {}],
      [str('a\\b'), {}],
      [str('~ !'), {}],
    ]);
  });
});

describe('parseDictionary', () => {
  it('reads members, a member without a value being true (3.2)', () => {
    expect(parseDictionary('en="Applepie", da=:w4ZibGV0w6ZydGUK:')).toStrictEqual(
      new Map([
        ['en', str('Applepie')],
        ['da', { type: 'bytes', value: 'w4ZibGV0w6ZydGUK' }],
      ]),
    );
    expect(parseDictionary('a=?0, b, c;foo=bar')).toStrictEqual(
      new Map([
        ['a', { type: 'boolean', value: false }],
        ['b', TRUE],
        ['c', TRUE],
      ]),
    );
    expect(parseDictionary('limit=100, remaining=50, reset=5')).toStrictEqual(
      new Map([
        ['limit', int(100)],
        ['remaining', int(50)],
        ['reset', int(5)],
      ]),
    );
  });
});

describe('refuses what RFC 8941 calls malformed (the field is then ignored whole)', () => {
  const parsers = { list: parseList, dictionary: parseDictionary };
  it.each([
    ['list', 'a trailing comma', 'a, b,'],
    ['list', 'members without a comma', 'a bc'],
    ['list', 'a member that is no item', 'a, @'],
    ['list', 'an empty member', 'a, , b'],
    ['list', 'more than 15 integer digits', '1234567890123456'],
    ['list', 'more than 3 decimal digits', '1.2345'],
    ['list', 'a minus without digits', '-a'],
    ['list', 'a boolean other than ?0 or ?1', '?2'],
    ['list', 'an unterminated byte sequence', ':cHJl'],
    ['list', 'a byte sequence with a character outside base64', ':cH$l:'],
    ['list', 'an unterminated string', '"abc'],
    ['list', 'an escape of something other than a quote or backslash', '"a\\x"'],
    ['list', 'a control character in a string', '"a\tb"'],
    ['list', 'a character outside ASCII in a string', '"caf\u00e9"'],
    ['list', 'an uppercase parameter key', 'a;Q=1'],
    ['list', 'a parameter with = and no value', 'a;q='],
    ['list', 'a parameter whose value is no item', 'a;q=@'],
    ['list', 'a parameter key that is no key', 'a;=1'],
    ['dictionary', 'an uppercase key', 'A=1'],
    ['dictionary', 'a member that is no key', '1=1'],
    ['dictionary', 'a member with = and no key', '=1'],
    ['dictionary', 'a key with = and no value', 'a='],
    ['dictionary', 'a key without a value whose parameters are malformed', 'a;Q'],
    ['dictionary', 'a trailing comma', 'a=1,'],
  ] as const)('a %s with %s', (kind, _what, text) => {
    expect(parsers[kind](text)).toBeUndefined();
  });
});
