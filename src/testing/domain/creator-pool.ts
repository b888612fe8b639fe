import { PLATFORMS, type Rules } from '../model/store-fields.js';
import type { CreatorProfile } from '../model/model.js';
import { matchesRules } from './creator-rules.js';
import { createRng, hashString, type Rng } from '../model/random.js';

const FIRST = [
  'sam',
  'lena',
  'kai',
  'maya',
  'theo',
  'zoe',
  'ravi',
  'mei',
  'omar',
  'ivy',
  'noah',
  'ana',
  'jun',
  'lucy',
  'dev',
  'nia',
  'leo',
  'yuki',
  'eli',
  'rosa',
];
const TOPIC = ['eats', 'bites', 'foodie', 'tastes', 'noms', 'dines', 'plates', 'cravings', 'munches', 'spoons'];
/**
 * Handles are the creators' own text: one begins with `=`, which a spreadsheet runs as a formula,
 * so the demo data and the tests meet what a CSV written for a person must defuse.
 */
const UNUSUAL = ['=sum.plates'];

/** The operator's network of creators: 201 profiles derived from the seed. */
export class CreatorPool {
  readonly #profiles: CreatorProfile[];

  constructor(seed: number) {
    const rng = createRng(hashString('creators', seed));
    this.#profiles = [];
    const names = [...TOPIC.flatMap((topic) => FIRST.map((first) => `@${first}.${topic}`)), ...UNUSUAL];
    for (const handle of names) {
      const platforms = PLATFORMS.filter(() => rng.chance(0.45));
      if (platforms.length === 0) platforms.push(rng.pick(PLATFORMS));
      this.#profiles.push({
        id: `cr_${(hashString(handle.replace(/^@/, ''), seed) % 2 ** 40).toString(36).padStart(8, '0')}`,
        handle,
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
