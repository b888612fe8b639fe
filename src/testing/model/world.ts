import { SimulatedClock } from '../simulation/clock.js';
import { ChangeLog, ChangeSequence } from './change-log.js';
import { CreatorPool } from '../domain/creator-pool.js';
import { KeyRing } from '../access/keys.js';
import type { Account } from './model.js';
import type { ResolvedOptions } from '../options.js';
import { streamFor, unpredictable, type Rng } from './random.js';

/** Ids end in 4 base-36 digits of salt. */
const SALT_RANGE = 36 ** 4;

/** Everything the emulator knows, shared by the routes, the simulation and the inspect helpers. */
export class World {
  readonly clock: SimulatedClock;
  readonly keys: KeyRing;
  readonly creators: CreatorPool;
  readonly accounts: Account[] = [];
  /** One insertion sequence for every record: list cursors carry a position in it. */
  #seq = 0;
  /** Change-log numbers, shared by every account so they order changes sandbox-wide. */
  readonly #changeSequence = new ChangeSequence();

  constructor(readonly options: ResolvedOptions) {
    this.clock = new SimulatedClock(options.start);
    // Keys repeat only when a seed was asked for: a sandbox on a port should not hand out guessable keys.
    this.keys = new KeyRing(options.seeded ? streamFor(options.seed, 'keys') : unpredictable);
    this.creators = new CreatorPool(options.seed);
  }

  nextSeq(): number {
    return ++this.#seq;
  }

  /**
   * An id with a prefix: unique and opaque-looking, but it carries its sequence number, so a
   * record is found by binary search in its seq-ordered list instead of a map of every id.
   */
  newId(prefix: string, seq = this.nextSeq()): string {
    // An integer mix of seq and seed (no string hashing: populate makes a million of these).
    let h = Math.imul(seq ^ this.options.seed, 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    const salt = ((h ^ (h >>> 13)) >>> 0) % SALT_RANGE;
    // seq in base 36 (6 digits at least), then the salt in 4: one number, one string (ids are made
    // each time a booking is read), exact while seq stays below 5 × 10^9.
    return `${prefix}_${(seq * SALT_RANGE + salt).toString(36).padStart(10, '0')}`;
  }

  /** The sequence number inside an id made by `newId(prefix)`, or undefined when it is not one. */
  static seqOf(prefix: string, id: string): number | undefined {
    if (
      !id.startsWith(`${prefix}_`) ||
      id.length < prefix.length + 11 ||
      !/^[0-9a-z]+$/.test(id.slice(prefix.length + 1))
    )
      return undefined;
    const seq = Number.parseInt(id.slice(prefix.length + 1, -4), 36);
    return Number.isSafeInteger(seq) ? seq : undefined;
  }

  newAccount(): Account {
    const account: Account = {
      id: `acct_${this.accounts.length + 1}`,
      stores: new Map(),
      storeList: [],
      bookingList: [],
      surchargePerVideoCents: 0,
      currency: 'USD',
      changes: new ChangeLog(this.#changeSequence),
      world: this,
    };
    this.accounts.push(account);
    return account;
  }

  /** The random stream of one store, independent of every other store's traffic. */
  storeRng(account: Account, storeId: string): Rng {
    return streamFor(this.options.seed, `${account.id}/${storeId}`);
  }
}
