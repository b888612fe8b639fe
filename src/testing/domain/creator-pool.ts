import { PLATFORMS, type Rules } from '../model/store-fields.js';
import type { CreatorProfile } from '../model/model.js';
import { matchesRules } from './creator-rules.js';
import { createRng, hashString, type Rng } from '../model/random.js';

const FIRST = ['sam', 'lena', 'kai', 'maya', 'theo', 'zoe', 'ravi', 'mei', 'omar', 'ivy', 'noah', 'ana', 'jun', 'lucy', 'dev', 'nia', 'leo', 'yuki', 'eli', 'rosa'];
const TOPIC = ['eats', 'bites', 'foodie', 'tastes', 'noms', 'dines', 'plates', 'cravings', 'munches', 'spoons'];

/** The operator's network of creators: 200 profiles derived from the seed. */
export class CreatorPool {
  readonly #profiles: CreatorProfile[];

  constructor(seed: number) {
    const rng = createRng(hashString('creators', seed));
    this.#profiles = [];
    for (let i = 0; i < FIRST.length * TOPIC.length; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const topic = TOPIC[Math.floor(i / FIRST.length)] as string;
      const platforms = PLATFORMS.filter(() => rng.chance(0.45));
      if (platforms.length === 0) platforms.push(rng.pick(PLATFORMS));
      this.#profiles.push({
        id: `cr_${(hashString(`${first}.${topic}`, seed) % 2 ** 40).toString(36).padStart(8, '0')}`,
        handle: `@${first}.${topic}`,
        platforms,
        // Log-uniform from 1,000 to 500,000 followers.
        followerCount: Math.round(1000 * 500 ** rng.next()),
      });
    }
  }

  /** A creator who fits the store's rules when one can be found in a few draws. */
  invite(rng: Rng, rules: Rules | null): CreatorProfile {
    let candidate = rng.pick(this.#profiles);
    for (let attempt = 0; attempt < 20 && !matchesRules(candidate, rules); attempt++) {
      candidate = rng.pick(this.#profiles);
    }
    return candidate;
  }
}
