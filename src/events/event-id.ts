/**
 * A deterministic event id: `evt_` and 16 hex digits of a 64-bit hash of what changed (two 32-bit
 * FNV-1a lanes with different seeds). Pure JavaScript, so it runs where `node:crypto` does not.
 */
export function eventId(change: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < change.length; i++) {
    const c = change.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `evt_${hex(a)}${hex(b)}`;
}

const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
