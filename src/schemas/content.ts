import * as z from 'zod/mini';
import { looseObject } from './loose-object.js';

/** A video a creator published for a store. View and like counts are not returned yet (spec §1). */
export const video = looseObject({
  video_id: z.string(),
  reservation_id: z.string(),
  url: z.string(),
  platform: z.string(),
  posted_at: z.string(),
});
export type Video = z.infer<typeof video>;
