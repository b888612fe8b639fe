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

class Cursor {
  i = 0;
  constructor(readonly text: string) {}
  get char(): string {
    return this.text[this.i] ?? '';
  }
  skip(spaces: RegExp): void {
    // Past the end `char` is '', which no pattern of spaces matches.
    while (spaces.test(this.char)) this.i += 1;
  }
  get done(): boolean {
    return this.i >= this.text.length;
  }
}

const KEY = /^[a-z*][a-z0-9_\-.*]*/;
const TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/;
const NUMBER = /^-?\d{1,15}(\.\d{1,3})?/;
const OWS = /[ \t]/;

export function parseList(text: string): Item[] | undefined {
  return parseMembers(text, parseItem);
}

export function parseDictionary(text: string): Map<string, BareItem> | undefined {
  const members = parseMembers(text, (c): [string, BareItem] | undefined => {
    const key = match(c, KEY);
    if (key === undefined) return undefined;
    if (c.char !== '=') return parseParams(c) && [key, { type: 'boolean', value: true }];
    c.i += 1;
    const item = parseItem(c);
    return item && [key, item.value];
  });
  return members && new Map(members);
}

function parseMembers<T>(text: string, member: (c: Cursor) => T | undefined): T[] | undefined {
  const c = new Cursor(text);
  const out: T[] = [];
  c.skip(/ /);
  while (!c.done) {
    const parsed = member(c);
    if (!parsed) return undefined;
    out.push(parsed);
    c.skip(OWS);
    if (c.done) break;
    if (c.char !== ',') return undefined;
    c.i += 1;
    c.skip(OWS);
    if (c.done) return undefined; // trailing comma
  }
  return out;
}

function parseItem(c: Cursor): Item | undefined {
  const value = parseBare(c);
  const params = value && parseParams(c);
  return value && params ? { value, params } : undefined;
}

function parseParams(c: Cursor): Map<string, BareItem> | undefined {
  const params = new Map<string, BareItem>();
  while (c.char === ';') {
    c.i += 1;
    c.skip(/ /);
    const key = match(c, KEY);
    if (key === undefined) return undefined;
    let value: BareItem | undefined = { type: 'boolean', value: true };
    if ((c.char as string) === '=') {
      c.i += 1;
      value = parseBare(c);
      if (!value) return undefined;
    }
    params.set(key, value);
  }
  return params;
}

function parseBare(c: Cursor): BareItem | undefined {
  const ch = c.char;
  if (ch === '"') return parseString(c);
  if (ch === ':') {
    const end = c.text.indexOf(':', c.i + 1);
    if (end < 0) return undefined;
    const value = c.text.slice(c.i + 1, end);
    if (!/^[A-Za-z0-9+/=]*$/.test(value)) return undefined;
    c.i = end + 1;
    return { type: 'bytes', value };
  }
  if (ch === '?') {
    const bit = c.text[c.i + 1];
    if (bit !== '0' && bit !== '1') return undefined;
    c.i += 2;
    return { type: 'boolean', value: bit === '1' };
  }
  if (ch === '-' || (ch >= '0' && ch <= '9')) {
    const text = match(c, NUMBER);
    if (text === undefined || /^\d/.test(c.char)) return undefined;
    return { type: text.includes('.') ? 'decimal' : 'integer', value: Number(text) };
  }
  const token = match(c, TOKEN);
  return token === undefined ? undefined : { type: 'token', value: token };
}

function parseString(c: Cursor): BareItem | undefined {
  let value = '';
  for (c.i += 1; !c.done; c.i += 1) {
    const ch = c.char;
    if (ch === '\\') {
      c.i += 1;
      if (c.char !== '"' && c.char !== '\\') return undefined;
      value += c.char;
    } else if (ch === '"') {
      c.i += 1;
      return { type: 'string', value };
    } else if (ch < ' ' || ch > '~') {
      return undefined;
    } else {
      value += ch;
    }
  }
  return undefined;
}

function match(c: Cursor, pattern: RegExp): string | undefined {
  const found = pattern.exec(c.text.slice(c.i));
  if (!found) return undefined;
  c.i += found[0].length;
  return found[0];
}
