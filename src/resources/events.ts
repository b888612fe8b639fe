import type { PartnerClient } from '../client.js';
import type { Clock } from '../core/config.js';
import { Watcher } from '../events/watcher.js';
import type { WatchOptions } from '../events/types.js';

const STOP_ALL = Symbol('stopAll');

/** Bookings and videos as a stream of events, until the service's webhooks are switched on. */
export class Events {
  readonly #client: PartnerClient;
  readonly #clock: Clock;
  readonly #running = new Set<Watcher>();

  /** @internal Made by the client. */
  constructor(client: PartnerClient, clock: Clock) {
    this.#client = client;
    this.#clock = clock;
  }

  /**
   * Every new booking, booking change (`status`, `acknowledged_kind`) and published video at every
   * store of the key, as events shaped like the coming webhooks, at least once each. The checkpoint
   * moves past an event when the loop body finished with it; an empty checkpoint first delivers what
   * already exists (or nothing, with `startFrom: 'now'`). Uses at most `budgetShare` of the key's
   * budget. See docs/events.md.
   *
   * @example
   * ```ts
   * import { fileCheckpoint } from '@crp/partner-sdk';
   *
   * for await (const event of client.events.watch({ checkpoint: fileCheckpoint('./crp-events.json'), signal })) {
   *   switch (event.type) {
   *     case 'reservation.created': console.log('new booking', event.data.reservation_id, event.data.status); break;
   *     case 'reservation.updated': console.log(event.data.reservation_id, event.previous.status, '->', event.data.status); break;
   *     case 'video.published': console.log('video', event.data.url); break;
   *   }
   * }
   * ```
   */
  watch(options: WatchOptions): Watcher {
    return new Watcher(this.#client, this.#clock, options, this.#running);
  }

  /** @internal client.close() stops every watcher. */
  [STOP_ALL](): void {
    for (const watcher of this.#running) watcher.stop();
  }
}

/** Stop every watcher of a client (called by `client.close()`). */
export function stopWatchers(events: Events): void {
  events[STOP_ALL]();
}
