import { PartnerError } from '../core/errors.js';

/**
 * Another watcher holds this checkpoint (in this process or, for a file, in another live process).
 * Two watchers on one checkpoint would each deliver everything; stop the other one, or give this
 * one its own checkpoint. A lock left by a process that died is taken over without this error.
 */
export class CheckpointLockedError extends PartnerError {
  declare readonly code: 'checkpoint_locked';
  /** The process id that holds the lock, when known. */
  readonly holderPid: number | undefined;

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, holderPid?: number) {
    super('checkpoint_locked', message);
    this.holderPid = holderPid;
  }
}

/** The checkpoint holds something the watcher cannot read (another program's data, or a newer format). */
export class CheckpointInvalidError extends PartnerError {
  declare readonly code: 'checkpoint_invalid';

  /** The SDK creates its errors; create one yourself only to simulate a failure in tests. */
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('checkpoint_invalid', message, options);
  }
}
