import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import type { Settings, UpdateSettingsBody } from '../schemas/settings.js';
import { OPERATIONS } from './operations.js';
import { Resource } from './resource.js';

/** The partner's account settings. */
export class SettingsResource extends Resource {
  /**
   * The surcharge per video the partner adds, for all stores.
   *
   * @example
   * ```ts
   * const { surcharge_per_video_cents, currency } = await client.settings.get();
   * ```
   */
  get(options?: RequestOptions): APIPromise<Settings> {
    return this.call(OPERATIONS['settings.get'], {}, options);
  }

  /**
   * Set the surcharge per video, once for all stores, in minor units.
   *
   * @example
   * ```ts
   * await client.settings.update({ surcharge_per_video_cents: 250 });
   * ```
   */
  update(body: UpdateSettingsBody, options?: RequestOptions): APIPromise<Settings> {
    return this.call(OPERATIONS['settings.update'], { body }, options);
  }
}
