import { APIPromise } from '../core/api-promise.js';
import type { RequestSpec } from '../core/request.js';
import type { Transport } from '../core/transport.js';
import { Content } from '../resources/content.js';
import { Creators } from '../resources/creators.js';
import { Locations } from '../resources/locations.js';
import { Pricing } from '../resources/pricing.js';
import { Reports } from '../resources/reports.js';
import { Reservations } from '../resources/reservations.js';
import { SettingsResource } from '../resources/settings.js';
import type { Schema } from '../schemas/fields.js';

/** The client's HTTP namespaces, as the generator calls them (no transport behind them: nothing is sent). */
export interface Namespaces {
  locations: Locations;
  reservations: Reservations;
  content: Content;
  creators: Creators;
  reports: Reports;
  settings: SettingsResource;
  pricing: Pricing;
}

/** What a resource method asks the transport to send: the one source of each operation's method, route and response. */
export type RecordedRequest = RequestSpec<Schema<unknown>>;

const NOT_SENT = Symbol('recorded, not sent');

/**
 * The request each call makes, as the resource method built it, without sending anything: the
 * namespaces run on a transport that records the spec and stops. So the document takes each
 * operation's name, method, route, response schema and retry safety from the resources
 * themselves, and the client carries no trace of the generator.
 */
export async function recordRequest(call: (namespaces: Namespaces) => unknown): Promise<RecordedRequest> {
  const recorded: RecordedRequest[] = [];
  const transport = {
    request(_options: unknown, build: () => RecordedRequest) {
      recorded.push(build());
      return new APIPromise(Promise.reject(NOT_SENT));
    },
  } as unknown as Transport;
  const context = { transport, prefetchPages: false };
  const namespaces: Namespaces = {
    locations: new Locations(context),
    reservations: new Reservations(context),
    content: new Content(context),
    creators: new Creators(context),
    reports: new Reports(context),
    settings: new SettingsResource(context),
    pricing: new Pricing(context),
  };
  try {
    await call(namespaces);
  } catch (error) {
    if (error !== NOT_SENT) throw error;
  }
  const [spec, ...more] = recorded;
  if (!spec || more.length > 0) throw new Error(`A documented call made ${recorded.length} requests; each must make exactly one`);
  return spec;
}

/** The namespaces' method names that send a request (the generator documents each; `enrollMany` is built on `enroll`). */
export function httpMethodNames(): string[] {
  const classes = { locations: Locations, reservations: Reservations, content: Content, creators: Creators, reports: Reports, settings: SettingsResource, pricing: Pricing };
  return Object.entries(classes).flatMap(([namespace, type]) =>
    Object.getOwnPropertyNames(type.prototype)
      .filter((name) => name !== 'constructor' && name !== 'enrollMany')
      .map((name) => `${namespace}.${name}`),
  );
}
