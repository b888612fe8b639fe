import { resolveConfig, type ClientOptions, type Environment } from './core/config.js';
import type { RateLimitState } from './core/rate-limit/headers.js';
import { Transport } from './core/transport.js';
import { Content } from './resources/content.js';
import { Creators } from './resources/creators.js';
import { Events, stopWatchers } from './resources/events.js';
import { Locations } from './resources/locations.js';
import { Pricing } from './resources/pricing.js';
import { Reports } from './resources/reports.js';
import { Reservations } from './resources/reservations.js';
import { SettingsResource } from './resources/settings.js';

/**
 * The client for the Partner Interface for Restaurant Platforms. One per key: it holds that key's
 * rate budget, so share it across your code rather than creating one per call.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 *
 * const client = new PartnerClient({ apiKey: process.env.PARTNER_API_KEY, baseUrl: 'https://partner.example.com' });
 * const store = await client.locations.enroll({ partner_location_id: 'store-42', name: 'Noodle Bar', address });
 * for await (const booking of client.reservations.list({ acknowledged: false })) console.log(booking.status);
 * await client.close();
 * ```
 */
export class PartnerClient {
  /** Stores: enroll, read, change, pause, resume, terminate. */
  readonly locations: Locations;
  /** Creator bookings. */
  readonly reservations: Reservations;
  /** Published videos. */
  readonly content: Content;
  /** Creators and sample review. */
  readonly creators: Creators;
  /** Summary and monthly billing counts. */
  readonly reports: Reports;
  /** The partner's surcharge per video. */
  readonly settings: SettingsResource;
  /** Price quotes. */
  readonly pricing: Pricing;
  /** Bookings and videos as a stream of events: `client.events.watch({ checkpoint })`. */
  readonly events: Events;
  /** `production` for `crp_live_` keys, `sandbox` for `crp_test_` keys. */
  readonly environment: Environment;
  readonly #transport: Transport;

  /**
   * A client for one key. Options not given fall back to the environment (`PARTNER_API_KEY`,
   * `PARTNER_API_BASE_URL`) and to the defaults listed in {@link ClientOptions}.
   *
   * @throws ConfigurationError when an option is missing or wrong; the message says what to fix.
   */
  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.environment = config.environment;
    this.#transport = new Transport(config);
    const context = { transport: this.#transport, prefetchPages: config.prefetchPages };
    this.locations = new Locations(context);
    this.reservations = new Reservations(context);
    this.content = new Content(context);
    this.creators = new Creators(context);
    this.reports = new Reports(context);
    this.settings = new SettingsResource(context);
    this.pricing = new Pricing(context);
    this.events = new Events(this, config.clock);
  }

  /** The key's budget as the service last reported it (limit, remaining, reset), or undefined before any response. */
  get rateLimit(): RateLimitState | undefined {
    return this.#transport.rateLimit;
  }

  /** Release timers and Redis connections so the process can exit. Safe to call twice. */
  close(): Promise<void> {
    stopWatchers(this.events);
    return this.#transport.close();
  }
}
