/**
 * A short, non-reversible tag for an API key, so one key's rate budget can be found (in memory or
 * in Redis) without the key itself ever being stored or sent anywhere but the Authorization header.
 * Two FNV-1a passes with different offsets give 64 bits: enough to tell keys apart.
 */
export function keyFingerprint(apiKey: string): string {
  return fnv1a(apiKey, 0x811c9dc5) + fnv1a(apiKey, 0x01000193);
}

function fnv1a(text: string, offset: number): string {
  let hash = offset;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
