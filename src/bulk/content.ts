/**
 * A row's content, as enrollMany compares it: two rows have the same content when they are the
 * same JSON value once members whose value is undefined are dropped (as JSON drops them) and key
 * order is ignored. Strings are compared exactly, as the service compares a name and an address
 * (no trimming, no case folding): rows the service would call different are never called the same
 * here. Every field counts, not only the name and address the service compares, because for a row
 * that differs only in its plan or hours the service answers 200 and keeps the first row's.
 */

/** SHA-256 of the row's canonical JSON, lower-case hex: what `resume` compares across runs. */
export async function contentHash(row: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(row));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** JSON with object keys sorted at every depth; a value JSON cannot hold is written as its type and text. */
export function canonicalJson(value: unknown, path: object[] = []): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? JSON.stringify(value) : `{"number":"${String(value)}"}`;
  if (typeof value !== 'object') return JSON.stringify({ [typeof value]: String(value) });
  // A row that contains itself is refused by the SDK before sending; it still needs a content.
  if (path.includes(value)) return '"[cycle]"';
  const inner = [...path, value];
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item, inner))).join(',')}]`;
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key], inner)}`);
  return `{${members.join(',')}}`;
}
