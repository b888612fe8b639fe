import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import type { DashboardToken, EnrollLocationBody, Location, UpdateLocationBody } from '../schemas/locations.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

/** Stores: enroll, read, change, pause, resume and terminate. */
export class Locations extends Resource {
  /**
   * Enroll a store. Idempotent on `partner_location_id`: sending the same id, name and address
   * again returns the same store (HTTP 200 instead of 201; `.withResponse()` tells them apart), so
   * a retried enrollment never creates two; a different name or address gives `ConflictError`,
   * whose message says to use `update()`. Opening hours are looked up when omitted
   * (`hours.state` is `missing` until they are known).
   *
   * @example
   * ```ts
   * const store = await client.locations.enroll({
   *   partner_location_id: 'store-42',
   *   name: 'Noodle Bar',
   *   address: { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' },
   * });
   * const { response } = await client.locations.enroll(body).withResponse();
   * console.log(response.status === 201 ? 'enrolled' : 'already enrolled');
   * ```
   */
  enroll(body: EnrollLocationBody, options?: RequestOptions): APIPromise<Location> {
    return this.call(OPERATIONS['locations.enroll'], { body }, options);
  }

  /**
   * Read one store, with its `progress` and `next_visit`.
   *
   * @example
   * ```ts
   * const store = await client.locations.get('store-42');
   * console.log(store.status, store.hours.state, store.next_visit?.visit_at);
   * ```
   */
  get(partnerLocationId: string, options?: RequestOptions): APIPromise<Location> {
    return this.call(OPERATIONS['locations.get'], { params: { partner_location_id: partnerLocationId } }, options);
  }

  /**
   * Change a store's name, address, plan, dishes, preferred language, hours, time zone, contact or
   * rules. Any other field is refused before sending.
   *
   * @example
   * ```ts
   * await client.locations.update('store-42', { preferred_language: 'zh' });
   * ```
   */
  update(partnerLocationId: string, patch: UpdateLocationBody, options?: RequestOptions): APIPromise<Location> {
    return this.call(
      OPERATIONS['locations.update'],
      { params: { partner_location_id: partnerLocationId }, body: patch },
      options,
    );
  }

  /**
   * Stop scheduling new visits for a store. Repeatable.
   *
   * @example
   * ```ts
   * await client.locations.pause('store-42');
   * ```
   */
  pause(partnerLocationId: string, options?: RequestOptions): APIPromise<Location> {
    return this.call(OPERATIONS['locations.pause'], { params: { partner_location_id: partnerLocationId } }, options);
  }

  /**
   * Resume scheduling for a paused store. Repeatable; a terminated store gives `ConflictError`.
   *
   * @example
   * ```ts
   * await client.locations.resume('store-42');
   * ```
   */
  resume(partnerLocationId: string, options?: RequestOptions): APIPromise<Location> {
    return this.call(OPERATIONS['locations.resume'], { params: { partner_location_id: partnerLocationId } }, options);
  }

  /**
   * End a store's contract. Final; its history is kept. Repeatable.
   *
   * @example
   * ```ts
   * await client.locations.terminate('store-42');
   * ```
   */
  terminate(partnerLocationId: string, options?: RequestOptions): APIPromise<Location> {
    return this.call(
      OPERATIONS['locations.terminate'],
      { params: { partner_location_id: partnerLocationId } },
      options,
    );
  }

  /**
   * A read-only token for one store's dashboard page, valid 30 minutes.
   *
   * @experimental The service has built this but not switched it on: until it does, this throws
   * `FeatureNotEnabledError`.
   * @example
   * ```ts
   * const { token, expires_at } = await client.locations.createDashboardToken('store-42');
   * ```
   */
  createDashboardToken(partnerLocationId: string, options?: RequestOptions): APIPromise<DashboardToken> {
    return this.call(
      OPERATIONS['locations.createDashboardToken'],
      { params: { partner_location_id: partnerLocationId } },
      options,
    );
  }
}
