import * as z from 'zod/mini';
import type { InputSchema, RequestFields, ResponseFields, Schema } from './fields.js';

const settingsFields = {
  /** What the partner adds to every video's price, in minor units of `currency`. */
  surcharge_per_video_cents: z.number(),
  /** ISO 4217 currency, e.g. `USD`. */
  currency: z.string(),
};
/** The partner's settings. */
export interface Settings extends ResponseFields<typeof settingsFields> {}
export const settings: Schema<Settings> = z.looseObject(settingsFields);

const updateSettingsFields = {
  /** What to add to every video's price, in minor units, 0 or more. */
  surcharge_per_video_cents: z.int().check(z.gte(0, 'must be a whole number of cents, 0 or more')),
};
/** Body of `settings.update()`. */
export interface UpdateSettingsBody extends RequestFields<typeof updateSettingsFields> {}
export const updateSettingsBody: InputSchema<UpdateSettingsBody> = z.strictObject(updateSettingsFields);
