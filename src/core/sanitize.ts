/**
 * Text from the other side (an error message, a hook's error, a redirect target) is cleaned before
 * it becomes part of an error: ANSI sequences and control characters removed (they could rewrite
 * a terminal or forge a log line), length capped, and the client's own key redacted in case a
 * proxy echoes the Authorization header back.
 */
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

export const REDACTED = '[redacted]';

/** Text that cleaning leaves as it is: printable ASCII without spaces (a request id, a token). */
const PLAIN = /^[\x21-\x7e]*$/;

export function cleanText(text: string, secret: string | undefined, maxLength = 300): string {
  // The usual request id, checked in one step: it runs on every response.
  if (text.length <= maxLength && PLAIN.test(text) && !(secret && text.includes(secret))) return text;
  let out = text.replace(ANSI, '').replace(CONTROL, ' ');
  if (secret) out = out.split(secret).join(REDACTED);
  out = out.replace(/\s{2,}/g, ' ').trim();
  return out.length > maxLength ? `${out.slice(0, maxLength)}…` : out;
}
