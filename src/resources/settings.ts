import { parseInput } from '../core/input.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request.js';
import { settings, updateSettingsBody, type Settings, type UpdateSettingsBody } from '../schemas/settings.js';
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
    return this.request(options, () => ({ operation: 'settings.get', method: 'GET', route: '/settings', response: settings, retry: 'safe' }));
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
    return this.request(options, () => ({
      operation: 'settings.update',
      method: 'PUT',
      route: '/settings',
      body: parseInput(updateSettingsBody, body),
      response: settings,
      retry: 'safe',
    }));
  }
}
