/** The remaining request bodies, as the wire contract states them. */
import { integer, object, oneOf } from './rules.js';

/** `POST /reservations/{id}/acknowledge`. */
export const acknowledgeBody = object({
  acknowledged_kind: oneOf(['forwarded_to_manager', 'acknowledged_self'] as const),
});

/** `POST /locations/{id}/creator-samples/{batch_id}/decision`. */
export const decisionBody = object({ decision: oneOf(['approve', 'new_batch'] as const) });

/** `PUT /settings`. */
export const settingsBody = object({
  surcharge_per_video_cents: integer(0, Number.MAX_SAFE_INTEGER, 'must be a whole number of cents, 0 or more'),
});
