import { createHash } from 'node:crypto';
import { parseAllowList, type AllowList } from './ip-allow-list.js';
import type { Account } from '../model/model.js';
import type { Rng } from '../model/random.js';
import type { Dialect } from './dialects.js';
import { KeyLimits, type RateLimit } from './rate-limiter.js';

/** What `sandbox.issueKey()` accepts. */
export interface IssueKeyOptions {
  /** Up to 100 IPv4/IPv6 addresses or CIDR ranges; calls from anywhere else get 403 forbidden_ip. Default: any address. */
  allowIps?: readonly string[];
  /** This key's budget; a field left out is the sandbox's `rateLimit` option's. Default: that option. */
  rateLimit?: Partial<RateLimit>;
  /** An existing key whose account the new key joins. Default: a new account of its own. */
  account?: string;
}

export interface KeyRecord {
  account: Account;
  allowList: AllowList | null;
  limits: KeyLimits;
}

/** Sandbox keys. Only a SHA-256 hash of each key is kept (as the service's specification requires of the real service). */
export class KeyRing {
  readonly #byHash = new Map<string, KeyRecord>();

  /** `token(n)`: n characters of [0-9A-Za-z], from the seed or from the operating system's randomness. */
  constructor(private readonly rng: Pick<Rng, 'token'>) {}

  /**
   * A new key; `account` may be a factory, called only once the options are known to be valid.
   * `as` issues that exact key instead (crp-sandbox's start-up key, again after a reset); a key is
   * drawn all the same, so a seeded ring goes on giving the keys it gave before.
   */
  issue(
    account: Account | (() => Account),
    allowIps: readonly string[] | undefined,
    rateLimit: RateLimit,
    dialect: Dialect,
    clock: () => number,
    as?: string,
  ): string {
    const allowList = allowIps ? parseAllowList(allowIps) : null;
    if (!Number.isInteger(rateLimit.limit) || rateLimit.limit < 1 || !(rateLimit.windowMs > 0)) {
      throw new RangeError('rateLimit needs a whole limit of 1 or more and a windowMs above 0');
    }
    const drawn = `crp_test_${this.rng.token(32)}`;
    const key = as ?? drawn;
    const owner = typeof account === 'function' ? account() : account;
    this.#byHash.set(hashKey(key), { account: owner, allowList, limits: new KeyLimits(rateLimit, dialect, clock) });
    return key;
  }

  find(key: string): KeyRecord | undefined {
    return this.#byHash.get(hashKey(key));
  }

  clear(): void {
    this.#byHash.clear();
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
