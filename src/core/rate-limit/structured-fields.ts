/**
 * The part of RFC 8941 (Structured Field Values) the rate-limit fields use: Lists and Dictionaries
 * of Items with Parameters. Anything malformed gives undefined, so the caller ignores the field.
 */
export interface BareItem {
  type: 'integer' | 'decimal' | 'string' | 'token' | 'bytes' | 'boolean';
  value: number | string | boolean;
}

export interface Item {
  value: BareItem;
  params: Map<string, BareItem>;
}

/**
 * One bare item, by its first character: a String (printable ASCII, `\"` and `\\` escaped), a
 * Byte Sequence (base64 between colons), a Boolean, an Integer (at most 15 digits) or Decimal (at
 * most 3 decimals), or a Token. A number running on into another digit or dot is malformed.
 */
const BARE =
  /"((?:[ !#-[\]-~]|\\["\\])*)"|:([A-Za-z0-9+/=]*):|\?([01])|(-?\d{1,15}(?:\.\d{1,3})?)(?![\d.])|([A-Za-z*][!#$%&'*+\-.^_`|~\w:/]*)/y;
const KEY = /[a-z*][a-z0-9_\-.*]*/y;
const PARAM = /;[ ]*/y;
const EQUALS = /=/y;
const COMMA = /[ \t]*,[ \t]*/y;
const OWS = /[ \t]*/y;
const SPACES = / */y;
const TRUE: BareItem = { type: 'boolean', value: true };

/** A position in the text; `eat` moves past what a sticky pattern matches there. */
class Reader {
  i = 0;
  constructor(readonly text: string) {}
  eat(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.i;
    const found = pattern.exec(this.text);
    if (found) this.i = pattern.lastIndex;
    return found;
  }
  get done(): boolean {
    return this.i >= this.text.length;
  }
}

export function parseList(text: string): Item[] | undefined {
  return parseMembers(text, parseItem);
}

export function parseDictionary(text: string): Map<string, BareItem> | undefined {
  const members = parseMembers(text, (r): [string, BareItem] | undefined => {
    const key = r.eat(KEY)?.[0];
    if (key === undefined) return undefined;
    // A key without a value is true (its parameters are read, then left out).
    if (!r.eat(EQUALS)) return parseParams(r) && [key, TRUE];
    const item = parseItem(r);
    return item && [key, item.value];
  });
  return members && new Map(members);
}

/** Members separated by commas with optional spaces or tabs; a trailing comma is malformed. */
function parseMembers<T>(text: string, member: (r: Reader) => T | undefined): T[] | undefined {
  const r = new Reader(text);
  const out: T[] = [];
  r.eat(SPACES);
  while (!r.done) {
    const parsed = member(r);
    if (!parsed) return undefined;
    out.push(parsed);
    r.eat(OWS);
    if (r.done) break;
    if (!r.eat(COMMA) || r.done) return undefined;
  }
  return out;
}

function parseItem(r: Reader): Item | undefined {
  const value = parseBare(r);
  const params = value && parseParams(r);
  return value && params ? { value, params } : undefined;
}

function parseParams(r: Reader): Map<string, BareItem> | undefined {
  const params = new Map<string, BareItem>();
  while (r.eat(PARAM)) {
    const key = r.eat(KEY)?.[0];
    if (key === undefined) return undefined;
    const value = r.eat(EQUALS) ? parseBare(r) : TRUE;
    if (!value) return undefined;
    params.set(key, value);
  }
  return params;
}

function parseBare(r: Reader): BareItem | undefined {
  const found = r.eat(BARE);
  if (!found) return undefined;
  const [, string, bytes, bit, number, token] = found;
  if (string !== undefined) return { type: 'string', value: string.replace(/\\(.)/g, '$1') };
  if (bytes !== undefined) return { type: 'bytes', value: bytes };
  if (bit !== undefined) return { type: 'boolean', value: bit === '1' };
  if (number !== undefined) return { type: number.includes('.') ? 'decimal' : 'integer', value: Number(number) };
  return { type: 'token', value: token as string };
}
