import { API_PREFIX, resolveConfig, type ClientOptions, type ClientClock, type Environment } from './core/config.js';
import type { RateLimitState } from './core/rate-limit/headers.js';
import { APIPromise } from './core/api-promise.js';
import { rawCall, type RawRequest } from './core/raw-request.js';
import type { RequestOptions } from './core/request.js';
import { keyFingerprint } from './core/key-fingerprint.js';
import type { Logger } from './core/logger.js';
import { Transport } from './core/transport.js';
import { Content } from './resources/content.js';
import { Creators } from './resources/creators.js';
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
  /** `production` for `crp_live_` keys, `sandbox` for `crp_test_` keys. */
  readonly environment: Environment;
  /**
   * The clock the client waits by (`ClientOptions.clock`, the real one by default). Work built on
   * the client, such as `watchEvents` of `@crp/partner-sdk/events`, paces itself by the same clock,
   * so a test's simulated time drives the client's rate budget and that work alike.
   */
  readonly clock: ClientClock;
  /**
   * Aborts when `close()` is called. Long-running work built on the client (the watchers of
   * `watchEvents`, your own loops) listens to it to stop with the client.
   *
   * @example
   * ```ts
   * client.closeSignal.addEventListener('abort', () => queue.stop(), { once: true });
   * ```
   */
  readonly closeSignal: AbortSignal;
  /**
   * A short, non-reversible tag of the API key (never the key itself): work built on the client
   * records it to tell what one key saved from what another did, e.g. a watcher's checkpoint.
   *
   * @example
   * ```ts
   * if (saved.key !== client.keyFingerprint) throw new Error('saved under another key');
   * ```
   */
  readonly keyFingerprint: string;
  /**
   * Where the client reports what it does (`ClientOptions.logger`, or the console at `logLevel`),
   * guarded so that nothing it throws reaches a caller. Work built on the client, such as
   * `watchEvents`, reports through it too.
   *
   * @example
   * ```ts
   * client.logger.warn?.('my-app: nightly export skipped a store', { store: 'loc_1' });
   * ```
   */
  readonly logger: Logger;
  /** The service this client talks to: the base URL's origin and path, without `/partner/v1`. */
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #closing = new AbortController();

  /**
   * A client for one key. Options not given fall back to the environment (`PARTNER_API_KEY`,
   * `PARTNER_API_BASE_URL`) and to the defaults listed in {@link ClientOptions}.
   *
   * @throws ConfigurationError when an option is missing or wrong; the message says what to fix.
   */
  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.environment = config.environment;
    this.clock = config.clock;
    this.closeSignal = this.#closing.signal;
    this.keyFingerprint = keyFingerprint(config.apiKey);
    this.logger = config.logger;
    this.baseUrl = config.apiUrl.slice(0, -API_PREFIX.length);
    this.#transport = new Transport(config);
    const context = { transport: this.#transport, prefetchPages: config.prefetchPages };
    this.locations = new Locations(context);
    this.reservations = new Reservations(context);
    this.content = new Content(context);
    this.creators = new Creators(context);
    this.reports = new Reports(context);
    this.settings = new SettingsResource(context);
    this.pricing = new Pricing(context);
  }

  /** The key's budget as the service last reported it (limit, remaining, reset), or undefined before any response. */
  get rateLimit(): RateLimitState | undefined {
    return this.#transport.rateLimit;
  }

  /**
   * Call an endpoint this SDK version does not know yet, under the same budget, hooks, errors and
   * retries as every method; resolves to the parsed JSON body (undefined for an empty one).
   *
   * Which failures repeat it: a GET, or any method with `retrySafe: true` (mark a write safe only
   * when sending it twice does no harm), after 429, 500, 502, 503, 504, a time-out or a connection
   * failure. Any other method only after 429 and the service's own 500 or 503 (its JSON error
   * body), and a connection refused before sending: never after 502, 504, a proxy's HTML page, a
   * time-out or a connection that dropped after sending, where the service may already have acted.
   *
   * @example
   * ```ts
   * const summary = await client.request({ method: 'GET', path: '/summary' });
   * await client.request({ method: 'POST', path: '/locations/store-1/pause', retrySafe: true });
   * ```
   */
  request(request: RawRequest, options?: RequestOptions): APIPromise<unknown> {
    let raw: ReturnType<typeof rawCall>;
    try {
      raw = rawCall(request);
    } catch (error) {
      // A request the SDK refuses rejects the promise, as every call's refused input does.
      return new APIPromise(Promise.reject(error));
    }
    return this.#transport.call(raw.operation, raw.input, options);
  }

  /**
   * Settle every call still waiting (with `AbortedError`) and release timers and Redis
   * connections so the process can exit; resolves within about a second whatever state Redis is
   * in. `closeSignal` aborts, so watchers of `watchEvents` stop too (their loops end). Safe to call twice.
   */
  close(): Promise<void> {
    this.#closing.abort();
    return this.#transport.close();
  }
}
