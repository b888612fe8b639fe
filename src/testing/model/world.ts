import { SimulatedClock } from '../simulation/clock.js';
import { ChangeLog, ChangeSequence } from './change-log.js';
import { CreatorPool } from '../domain/creator-pool.js';
import { KeyRing } from '../access/keys.js';
import type { Account } from './model.js';
import type { ResolvedOptions } from '../options.js';
import { hashString, streamFor, unpredictable, type Rng } from './random.js';

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

  /** An id with a prefix: unique (it carries a sequence number) and opaque-looking. */
  newId(prefix: string, seq = this.nextSeq()): string {
    const salt = hashString(String(seq), this.options.seed) % 36 ** 4;
    return `${prefix}_${seq.toString(36).padStart(6, '0')}${salt.toString(36).padStart(4, '0')}`;
  }

  newAccount(): Account {
    const account: Account = {
      id: `acct_${this.accounts.length + 1}`,
      stores: new Map(),
      storeList: [],
      bookings: new Map(),
      bookingList: [],
      surchargePerVideoCents: 0,
      currency: 'USD',
      changes: new ChangeLog(this.#changeSequence),
    };
    this.accounts.push(account);
    return account;
  }

  /** The random stream of one store, independent of every other store's traffic. */
  storeRng(account: Account, storeId: string): Rng {
    return streamFor(this.options.seed, `${account.id}/${storeId}`);
  }
}
