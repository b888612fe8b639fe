import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';

export const settings = looseObject({
  surcharge_per_video_cents: z.number(),
  currency: z.string(),
});
export type Settings = z.infer<typeof settings>;

export const updateSettingsBody = z.strictObject({
  surcharge_per_video_cents: z.int().check(z.gte(0, 'must be a whole number of cents, 0 or more')),
});
export type UpdateSettingsBody = z.infer<typeof updateSettingsBody>;
