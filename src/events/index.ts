export { Watcher } from './watcher.js';
export { memoryCheckpoint, type Checkpoint, type SaveOptions } from './checkpoint.js';
export { fileCheckpoint, type FileCheckpointOptions } from './file-checkpoint.js';
export { CheckpointInvalidError, CheckpointLockedError } from '../core/errors.js';
export type {
  PartnerEvent,
  PartnerEventBase,
  PartnerEventType,
  ReservationCreatedEvent,
  ReservationUpdatedEvent,
  VideoPublishedEvent,
  WatchOptions,
  WatchStats,
} from './types.js';
