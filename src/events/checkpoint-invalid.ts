/** The error for a checkpoint the watcher cannot go on from, shared by every check of one. */
import { CheckpointInvalidError } from '../index.js';

/** A checkpoint that is not one the watcher can go on from: what is wrong, and what to do. */
export function invalid(why: string, cause?: unknown): CheckpointInvalidError {
  return new CheckpointInvalidError(
    `The checkpoint is not one this version's event watcher can go on from: ${why}. Nothing was changed. ` +
      "If it is another program's data, give the watcher a checkpoint of its own (a new path or key); if it is a damaged " +
      'checkpoint, move it aside or delete it, and the watcher starts again as set by startFrom.',
    { cause },
  );
}
