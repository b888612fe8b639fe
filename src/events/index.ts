/**
 * `@crp/partner-sdk/events`: bookings and videos as a stream of events. Built on the public client
 * only (`../index.js`, kept external in the build), so the error classes are the main entry's own.
 */
import { ConfigurationError, type PartnerClient } from '../index.js';
import type { PartnerEvent, PartnerEventWithStores, WatchOptions, WatchOptionsWithStores } from './types.js';
import { Watcher } from './watcher.js';

export { Watcher } from './watcher.js';
export {
  memoryCheckpoint,
  type Checkpoint,
  type LockOptions,
  type LockStatus,
  type SaveOptions,
} from './checkpoint.js';
export { fileCheckpoint, type FileCheckpointOptions } from './file-checkpoint.js';
export { CheckpointInvalidError, CheckpointLockedError } from '../index.js';
export type {
  PartnerEvent,
  PartnerEventBase,
  PartnerEventType,
  LocationUpdatedEvent,
  PartnerEventWithStores,
  ReservationCreatedEvent,
  ReservationUpdatedEvent,
  VideoPublishedEvent,
  StoreWatchOptions,
  WatchOptions,
  WatchOptionsWithStores,
  WatchStats,
} from './types.js';

/**
 * Every new booking, booking change (`status`, `acknowledged_kind`) and published video at every
 * store of the client's key, as events shaped like the coming webhooks, at least once each. The
 * checkpoint moves past an event when the loop body finished with it; an empty checkpoint first
 * delivers what already exists (or nothing, with `startFrom: 'now'`). Uses at most `budgetShare`
 * of the key's budget and waits by the client's `clock`; stops with `signal`, `watcher.stop()` or
 * `client.close()`. See docs/events.md.
 *
 * With `stores: true` (or `{ refreshMs }`), store records too, as `location.updated` events: the
 * watcher's events are then `PartnerEventWithStores`, and a `switch` over `PartnerEvent` elsewhere
 * stays exhaustive.
 *
 * @throws ConfigurationError when `client` is not a client or an option is wrong.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 * import { fileCheckpoint, watchEvents } from '@crp/partner-sdk/events';
 *
 * const client = new PartnerClient();
 * for await (const event of watchEvents(client, { checkpoint: fileCheckpoint('./crp-events.json'), signal })) {
 *   switch (event.type) {
 *     case 'reservation.created': console.log('new booking', event.data.reservation_id, event.data.status); break;
 *     case 'reservation.updated': console.log(event.data.reservation_id, event.previous.status, '->', event.data.status); break;
 *     case 'video.published': console.log('video', event.data.url); break;
 *   }
 * }
 * ```
 */
export function watchEvents(client: PartnerClient, options: WatchOptionsWithStores): Watcher<PartnerEventWithStores>;
export function watchEvents(client: PartnerClient, options: WatchOptions): Watcher<PartnerEvent>;
export function watchEvents(
  client: PartnerClient,
  options: WatchOptions | WatchOptionsWithStores,
): Watcher<PartnerEventWithStores> {
  if (!isClient(client)) {
    throw new ConfigurationError(
      'watchEvents(client, options) takes the PartnerClient to watch through as its first argument.',
    );
  }
  return new Watcher(client, options);
}

/** What the watcher uses of a client; checked by shape, so a client from the CommonJS build passes too. */
function isClient(value: unknown): value is PartnerClient {
  const c = value as Partial<PartnerClient> | undefined;
  return (
    typeof c?.reports?.summary === 'function' &&
    typeof c.clock?.sleep === 'function' &&
    c.closeSignal instanceof AbortSignal
  );
}
