import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import type { RequestSpec } from '../../src/core/request.js';
import type { Transport } from '../../src/core/transport.js';
import { Content } from '../../src/resources/content.js';
import { Creators } from '../../src/resources/creators.js';
import { Locations } from '../../src/resources/locations.js';
import { Pricing } from '../../src/resources/pricing.js';
import { Reports } from '../../src/resources/reports.js';
import { Reservations } from '../../src/resources/reservations.js';
import { SettingsResource } from '../../src/resources/settings.js';

/** A transport that records the spec each method builds and answers nothing. */
function recordingContext() {
  const specs: Array<RequestSpec<never>> = [];
  const transport = {
    request(_options: unknown, build: () => RequestSpec<never>) {
      specs.push(build());
      return new APIPromise(new Promise<never>(() => undefined));
    },
  } as unknown as Transport;
  return { specs, context: { transport, prefetchPages: false } };
}

const address = { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' };

describe('every method names its operation for telemetry', () => {
  const cases: Array<[string, (c: ReturnType<typeof recordingContext>['context']) => unknown]> = [
    ['locations.enroll', (c) => new Locations(c).enroll({ partner_location_id: 's1', name: 'N', address })],
    ['locations.get', (c) => new Locations(c).get('s1')],
    ['locations.update', (c) => new Locations(c).update('s1', { name: 'M' })],
    ['locations.pause', (c) => new Locations(c).pause('s1')],
    ['locations.resume', (c) => new Locations(c).resume('s1')],
    ['locations.terminate', (c) => new Locations(c).terminate('s1')],
    ['locations.createDashboardToken', (c) => new Locations(c).createDashboardToken('s1')],
    ['reservations.list', (c) => new Reservations(c).list().then(() => undefined)],
    ['reservations.listForLocation', (c) => new Reservations(c).listForLocation('s1').then(() => undefined)],
    ['reservations.acknowledge', (c) => new Reservations(c).acknowledge('r1', 'acknowledged_self')],
    ['content.list', (c) => new Content(c).list('s1').then(() => undefined)],
    ['creators.list', (c) => new Creators(c).list('s1').then(() => undefined)],
    ['creators.getSamples', (c) => new Creators(c).getSamples('s1')],
    ['creators.decideSamples', (c) => new Creators(c).decideSamples('s1', 'b1', 'approve')],
    ['reports.summary', (c) => new Reports(c).summary()],
    ['reports.billingMonthly', (c) => new Reports(c).billingMonthly('2026-12').then(() => undefined)],
    ['settings.get', (c) => new SettingsResource(c).get()],
    ['settings.update', (c) => new SettingsResource(c).update({ surcharge_per_video_cents: 1 })],
    ['pricing.quote', (c) => new Pricing(c).quote({ plan: 'growth', videos_per_month: 4 })],
  ];
  it.each(cases)('%s', (operation, call) => {
    const { specs, context } = recordingContext();
    void call(context);
    expect(specs.map((s) => s.operation)).toEqual([operation]);
  });
});
