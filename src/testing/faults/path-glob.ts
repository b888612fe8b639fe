/** The longest `pathPattern` taken: the match costs at most path length × pattern length steps. */
export const MAX_GLOB_LENGTH = 512;

/**
 * A path glob: `*` stands for any run of characters, `/` included; every other character is
 * itself. It comes from outside (the control API), so it is never a RegExp: a pattern such as
 * `^/(a+)+$` would backtrack for seconds and block the whole server. Matching keeps one resume
 * point (the last `*`), so it takes at most `path.length × pattern.length` steps.
 *
 * @example
 * const glob = new PathGlob('/partner/v1/locations/*');
 * glob.test('/partner/v1/locations/store-1/creator-samples/b1/decision'); // true
 * new PathGlob('*decision').test('/partner/v1/locations/s/creator-samples/b1/decision'); // true
 */
export class PathGlob {
  /** The pattern as given. */
  readonly source: string;

  constructor(pattern: string) {
    if (pattern.length === 0 || pattern.length > MAX_GLOB_LENGTH)
      throw new RangeError(`pathPattern must be 1 to ${MAX_GLOB_LENGTH} characters`);
    this.source = pattern;
  }

  /** Whether the whole of `path` matches. */
  test(path: string): boolean {
    const pattern = this.source;
    let p = 0;
    let s = 0;
    let star = -1;
    let resume = 0;
    while (s < path.length) {
      if (p < pattern.length && pattern[p] === '*') {
        star = p++;
        resume = s;
      } else if (p < pattern.length && pattern[p] === path[s]) {
        p++;
        s++;
      } else if (star >= 0) {
        p = star + 1;
        s = ++resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length && pattern[p] === '*') p++;
    return p === pattern.length;
  }
}
