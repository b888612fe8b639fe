/**
 * A key's IP allow-list: up to 100 addresses or CIDR ranges, IPv4 or IPv6.
 * An IPv4-mapped IPv6 address (::ffff:127.0.0.1) counts as the IPv4 address it carries.
 */
export const MAX_ALLOW_LIST_ENTRIES = 100;

interface Range {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

export interface AllowList {
  allows(address: string): boolean;
}

/** Parse an allow-list; throws a RangeError naming the first bad entry. */
export function parseAllowList(entries: readonly string[]): AllowList {
  if (entries.length > MAX_ALLOW_LIST_ENTRIES) {
    throw new RangeError(
      `allowIps has ${entries.length} entries; a key may list at most ${MAX_ALLOW_LIST_ENTRIES} addresses or CIDR ranges`,
    );
  }
  const ranges = entries.map(parseRange);
  return {
    allows(address) {
      const ip = parseAddress(address);
      if (!ip) return false;
      return ranges.some((r) => r.family === ip.family && sameNetwork(r, ip.value));
    },
  };
}

function parseRange(entry: string): Range {
  const [addressPart, prefixPart, extra] = entry.trim().split('/');
  const ip = addressPart === undefined || extra !== undefined ? undefined : parseAddress(addressPart);
  if (!ip) throw new RangeError(`allowIps entry ${JSON.stringify(entry)} is not an IP address or CIDR range`);
  let prefix = ip.family === 4 ? 32 : 128;
  if (prefixPart !== undefined) {
    if (!/^\d{1,3}$/.test(prefixPart) || Number(prefixPart) > prefix + (ip.mapped ? 96 : 0)) {
      throw new RangeError(`allowIps entry ${JSON.stringify(entry)} has an invalid prefix length`);
    }
    // A mapped entry (::ffff:10.0.0.0/104) is written in IPv6 prefix bits.
    prefix = ip.mapped ? Math.max(0, Number(prefixPart) - 96) : Number(prefixPart);
  }
  return { family: ip.family, base: ip.value, prefix };
}

function sameNetwork(range: Range, value: bigint): boolean {
  const bits = BigInt(range.family === 4 ? 32 : 128);
  const shift = bits - BigInt(range.prefix);
  return value >> shift === range.base >> shift;
}

interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
  mapped: boolean;
}

export function parseAddress(text: string): ParsedAddress | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { family: 4, value: v4, mapped: false };
  const v6 = parseIPv6(text.replace(/%.*$/, ''));
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn, mapped: true };
  return { family: 6, value: v6, mapped: false };
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    value = (value << 8n) | BigInt(p);
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): string[] | undefined => {
    if (!half) return [];
    const out: string[] = [];
    const items = half.split(':');
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as string;
      if (i === items.length - 1 && item.includes('.')) {
        const v4 = parseIPv4(item);
        if (v4 === undefined) return undefined;
        out.push((v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(item)) {
        out.push(item);
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}
