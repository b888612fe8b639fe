import * as z from 'zod/mini';
import type { ResponseFields, Schema } from './fields.js';

const videoFields = {
  /** The video's id. */
  video_id: z.string(),
  /** The booking whose visit it came from. */
  reservation_id: z.string(),
  /** Where to watch it. */
  url: z.string(),
  /** The platform it was posted on, e.g. `instagram`. */
  platform: z.string(),
  /** When it was posted, ISO 8601 UTC. */
  posted_at: z.string(),
};
/** A video a creator published for a store. View and like counts are not returned yet. */
export interface Video extends ResponseFields<typeof videoFields> {}
export const video: Schema<Video> = z.looseObject(videoFields);
