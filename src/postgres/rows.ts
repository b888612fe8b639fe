/**
 * The statements that write the service's objects into the mirror's tables, many rows in one
 * statement. Each upsert keeps the newer state: a booking or video by when the stream found it
 * (`observed_at`, the service's clock), a store by its own `updated_at`; an older state (a replay,
 * a late writer) changes nothing.
 */
import type { BillingRow, Location } from '../index.js';
import type { PartnerEvent } from '../events/index.js';
import type { Queryable } from './database.js';

/**
 * The newest state of each key among `items`, in first-seen order: one statement cannot update a
 * row twice, and on equal versions the later one wins, as the upsert's `<=` lets it.
 */
export function newestByKey<T>(items: readonly T[], key: (item: T) => string, version: (item: T) => number): T[] {
  const newest = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    const seen = newest.get(k);
    if (seen === undefined || version(seen) <= version(item)) newest.set(k, item);
  }
  return [...newest.values()];
}

const observed = (event: PartnerEvent) => Date.parse(event.created_at);

/** One change's rows (a batch of one). */
export function applyEvent(tx: Queryable, s: string, event: PartnerEvent): Promise<void> {
  return applyEvents(tx, s, [event]);
}

/** The rows of many changes: one statement for the bookings, one for the videos. */
export async function applyEvents(tx: Queryable, s: string, events: readonly PartnerEvent[]): Promise<void> {
  const videos = newestByKey(
    events.filter((e) => e.type === 'video.published'),
    (e) => e.data.video_id,
    observed,
  ).map((e) => ({ ...e.data, partner_location_id: e.partner_location_id, observed_at: e.created_at, data: e.data }));
  const bookings = newestByKey(
    events.filter((e) => e.type !== 'video.published'),
    (e) => e.data.reservation_id,
    observed,
  ).map((e) => ({ ...e.data, observed_at: e.created_at, data: e.data }));
  if (videos.length > 0) {
    await tx.query(
      `insert into ${s}.videos (video_id, partner_location_id, reservation_id, url, platform, posted_at, data, observed_at, synced_at)
       select e->>'video_id', e->>'partner_location_id', e->>'reservation_id', e->>'url', e->>'platform',
              (e->>'posted_at')::timestamptz, e->'data', (e->>'observed_at')::timestamptz, now()
         from jsonb_array_elements($1::jsonb) as e
       on conflict (video_id) do update set partner_location_id = excluded.partner_location_id, reservation_id = excluded.reservation_id,
         url = excluded.url, platform = excluded.platform, posted_at = excluded.posted_at, data = excluded.data,
         observed_at = excluded.observed_at, synced_at = excluded.synced_at
       where ${s}.videos.observed_at <= excluded.observed_at`,
      [JSON.stringify(videos)],
    );
  }
  if (bookings.length > 0) {
    await tx.query(
      `insert into ${s}.bookings (reservation_id, partner_location_id, status, visit_at, time_zone, party_size,
         acknowledged_kind, created_at, data, observed_at, synced_at)
       select e->>'reservation_id', e->>'partner_location_id', e->>'status', (e->>'visit_at')::timestamptz, e->>'time_zone',
              (e->>'party_size')::int, e->>'acknowledged_kind', (e->>'created_at')::timestamptz, e->'data',
              (e->>'observed_at')::timestamptz, now()
         from jsonb_array_elements($1::jsonb) as e
       on conflict (reservation_id) do update set partner_location_id = excluded.partner_location_id, status = excluded.status,
         visit_at = excluded.visit_at, time_zone = excluded.time_zone, party_size = excluded.party_size,
         acknowledged_kind = excluded.acknowledged_kind, created_at = excluded.created_at, data = excluded.data,
         observed_at = excluded.observed_at, synced_at = excluded.synced_at
       where ${s}.bookings.observed_at <= excluded.observed_at`,
      [JSON.stringify(bookings)],
    );
  }
}

/** Many stores in one statement; a store whose `updated_at` is older than the row's changes nothing. */
export async function upsertStores(tx: Queryable, s: string, stores: readonly Location[]): Promise<void> {
  if (stores.length === 0) return;
  const newest = newestByKey(
    stores,
    (l) => l.partner_location_id,
    (l) => Date.parse(l.updated_at) || 0,
  );
  await tx.query(
    `insert into ${s}.stores (partner_location_id, name, status, time_zone, preferred_language, address, created_at, updated_at, data, synced_at)
     select e->>'partner_location_id', e->>'name', e->>'status', e->>'time_zone', e->>'preferred_language', e->'address',
            (e->>'created_at')::timestamptz, (e->>'updated_at')::timestamptz, e, now()
       from jsonb_array_elements($1::jsonb) as e
     on conflict (partner_location_id) do update set name = excluded.name, status = excluded.status, time_zone = excluded.time_zone,
       preferred_language = excluded.preferred_language, address = excluded.address, created_at = excluded.created_at,
       updated_at = excluded.updated_at, data = excluded.data, synced_at = excluded.synced_at
     where ${s}.stores.updated_at is null or ${s}.stores.updated_at <= excluded.updated_at`,
    [JSON.stringify(newest)],
  );
}

/**
 * One month's billing rows in one statement. Billing rows carry no version: the last read wins,
 * and only the writer holding the lease writes (a writer that lost it commits nothing).
 */
export async function upsertBilling(
  tx: Queryable,
  s: string,
  month: string,
  rows: readonly BillingRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into ${s}.billing_monthly (partner_location_id, month, videos_published, completed_visits, no_shows, data, synced_at)
     select e->>'partner_location_id', $2, (e->>'videos_published')::int, (e->>'completed_visits')::int, (e->>'no_shows')::int, e, now()
       from jsonb_array_elements($1::jsonb) as e
     on conflict (partner_location_id, month) do update set videos_published = excluded.videos_published,
       completed_visits = excluded.completed_visits, no_shows = excluded.no_shows, data = excluded.data, synced_at = excluded.synced_at`,
    [JSON.stringify(rows), month],
  );
}
