/**
 * JSON.parse for lines read back from a store, refusing deep nesting before parsing: a value
 * nested thousands deep parses, but every recursive walk over it afterwards (JSON.stringify for
 * an error's preview, a check) ends in a RangeError instead of the error the caller promises.
 */

/** Deeper than any line the SDK writes (a checkpoint's snapshot nests 3 levels). */
export const MAX_DEPTH = 64;

/** Thrown by `parseShallow` for a text nested deeper than `MAX_DEPTH`. */
export class TooDeepError extends SyntaxError {
  constructor() {
    super(`JSON nested deeper than ${MAX_DEPTH} levels`);
    this.name = 'TooDeepError';
  }
}

/** `JSON.parse(text)`, or `TooDeepError` when arrays and objects nest deeper than `MAX_DEPTH`. */
export function parseShallow(text: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) throw new TooDeepError();
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return JSON.parse(text);
}
