// Type-checked by scripts/check-package.mjs as a strict consumer would (nodenext, strict,
// skipLibCheck false, without msw): every namespace, watchEvents (`/events`) and enrollMany (`/bulk`),
// the named wire types, Promise lists and typed error codes, from the published declarations.
import {
  PartnerClient,
  isPartnerError,
  unknownField,
  type BillingRow,
  type Creator,
  type DashboardToken,
  type EnrollLocationBody,
  type Location,
  type Page,
  type PriceQuote,
  type Reservation,
  type SampleBatch,
  type Settings,
  type Summary,
  type Video,
} from '@crp/partner-sdk';
import { enrollMany, type EnrollOutcome, type EnrollSummary } from '@crp/partner-sdk/bulk';
import { memoryCheckpoint, watchEvents, type PartnerEvent, type WatchStats } from '@crp/partner-sdk/events';

const client = new PartnerClient({ apiKey: 'crp_test_x', baseUrl: 'http://127.0.0.1:4010' });
const address = { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' };

export async function everyNamespace(): Promise<void> {
  const { data, response } = await client.locations
    .enroll({ partner_location_id: 'store-1', name: 'Noodle Bar', address })
    .withResponse();
  const created: boolean = response.status === 201;
  const store: Location = data;
  const updated: Location = await client.locations.update('store-1', {
    preferred_language: 'zh',
    rules: { platforms: ['instagram'] },
  });
  await client.locations.pause('store-1');
  await client.locations.resume('store-1');
  await client.locations.terminate('store-1');
  const token: DashboardToken = await client.locations.createDashboardToken('store-1');
  const firstPage: Promise<Page<Reservation>> = client.reservations.list({
    status: ['confirmed'],
    acknowledged: false,
  });
  const page = await firstPage.finally(() => undefined);
  const listed = await client.reservations.listForLocation('store-1').withResponse();
  for await (const booking of client.reservations.list()) {
    const kind: 'forwarded_to_manager' | 'acknowledged_self' | (string & {}) | null = booking.acknowledged_kind;
    await client.reservations.acknowledge(booking.reservation_id, 'acknowledged_self');
    void kind;
  }
  for await (const video of client.content.list('store-1')) void (video satisfies Video);
  for await (const creator of client.creators.list('store-1')) void (creator satisfies Creator);
  const batch: SampleBatch = await client.creators.getSamples('store-1');
  await client.creators.decideSamples('store-1', batch.batch_id, 'approve');
  const summary: Summary = await client.reports.summary();
  for await (const row of client.reports.billingMonthly('2026-12').pages()) void (row.items satisfies BillingRow[]);
  const settings: Settings = await client.settings.update({ surcharge_per_video_cents: 250 });
  const quote: PriceQuote = await client.pricing.quote({ plan: 'growth', videos_per_month: 8, country: 'US' });
  const extra: unknown = unknownField(store, 'tip_cents');
  void [
    created,
    updated,
    token,
    page.nextCursor,
    listed.response.requestId,
    summary.reservations.unacknowledged,
    settings,
    quote.total_cents,
    extra,
  ];
}

export async function enrollStores(rows: AsyncIterable<EnrollLocationBody>, signal: AbortSignal): Promise<number> {
  const summary: EnrollSummary = await enrollMany(client, rows, {
    concurrency: 8,
    signal,
    total: 100_000,
    resume: [{ partner_location_id: 'store-1', status: 'created' }],
    onOutcome: async (outcome: EnrollOutcome) => {
      switch (outcome.status) {
        case 'created':
        case 'already_enrolled':
          void (outcome.location satisfies Location);
          break;
        case 'invalid':
          void [outcome.field, outcome.error.code];
          break;
        case 'conflict':
        case 'failed':
          void outcome.message;
          break;
        case 'skipped':
        case 'not_attempted':
          void outcome.partner_location_id;
          break;
        default:
          void (outcome satisfies never);
      }
    },
    onProgress: ({ done, total, inFlight, elapsedMs }) => void [done, total, inFlight, elapsedMs],
  });
  // @ts-expect-error: outcomes are counted by status; there is no `errors` count
  void summary.counts.errors;
  return summary.counts.created + summary.counts.already_enrolled + (summary.aborted ? 1 : 0);
}

export async function events(signal: AbortSignal): Promise<WatchStats> {
  const watcher = watchEvents(client, { checkpoint: memoryCheckpoint(), signal, startFrom: 'now', budgetShare: 0.3 });
  for await (const event of watcher) {
    const seen: PartnerEvent = event;
    switch (event.type) {
      case 'reservation.created':
        void (event.data satisfies Reservation);
        break;
      case 'reservation.updated':
        void [event.data.reservation_id, event.previous.status];
        break;
      case 'video.published':
        void (event.data satisfies Video);
        break;
      default:
        void (event satisfies never);
    }
    void seen.id;
  }
  // @ts-expect-error: startFrom is 'beginning' or 'now'
  watchEvents(client, { checkpoint: memoryCheckpoint(), startFrom: 'yesterday' });
  return watcher.stats;
}

export function typos(booking: Reservation, store: Location): void {
  // @ts-expect-error: the field is acknowledged_kind (no index signature)
  void booking.acknowledged;
  // @ts-expect-error: hours has state and weekly
  void store.hours.status;
}

export function codes(error: unknown): string {
  if (!isPartnerError(error)) return 'not ours';
  switch (error.code) {
    case 'rate_limited':
      return `wait ${error.retryAfterMs ?? 0} ms`;
    case 'unavailable':
    case 'bad_gateway':
      return `retry later (ref ${error.reference ?? '-'})`;
    case 'conflict':
      return error.message;
    default:
      return error.code;
  }
}
