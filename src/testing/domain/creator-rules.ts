import type { Rules } from '../model/store-fields.js';
import type { CreatorProfile } from '../model/model.js';

/** Whether a creator fits a store's rules: platforms, overall and per-platform follower ranges. */
export function matchesRules(creator: CreatorProfile, rules: Rules | null): boolean {
  if (!rules) return true;
  const inRange = (range: { min?: number | undefined; max?: number | undefined } | undefined): boolean =>
    !range ||
    ((range.min === undefined || creator.followerCount >= range.min) &&
      (range.max === undefined || creator.followerCount <= range.max));
  if (rules.platforms && rules.platforms.length > 0 && !creator.platforms.some((p) => rules.platforms?.includes(p)))
    return false;
  if (!inRange(rules.follower_range)) return false;
  for (const platform of creator.platforms) {
    if (!inRange(rules.follower_range_by_platform?.[platform])) return false;
  }
  return true;
}
