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

/**
 * Many stores read at `readAt` (the service's time of the answer), in one statement; a store whose
 * `updated_at` is older than the row's changes nothing. `synced_at` is `readAt`, and never moves
 * back for a store read again as the row holds it.
 */
/** A store as one read of the service returned it, and the service's time of that answer. */
export interface StoreRead {
  store: Location;
  at: string;
}

/**
 * Stores as read, each row confirmed at its own read's time: a batch holds reads made at
 * different moments. The same data read again only moves `synced_at` forward.
 */
export async function upsertStores(tx: Queryable, s: string, reads: readonly StoreRead[]): Promise<void> {
  if (reads.length === 0) return;
  const newest = newestByKey(
    reads,
    (r) => r.store.partner_location_id,
    (r) => Date.parse(r.store.updated_at) || 0,
  );
  await tx.query(
    `insert into ${s}.stores (partner_location_id, name, status, time_zone, preferred_language, address, created_at, updated_at, data, synced_at)
     select e->>'partner_location_id', e->>'name', e->>'status', e->>'time_zone', e->>'preferred_language', e->'address',
            (e->>'created_at')::timestamptz, (e->>'updated_at')::timestamptz, e, ($2::timestamptz[])[r.i]
       from jsonb_array_elements($1::jsonb) with ordinality as r(e, i)
     on conflict (partner_location_id) do update set name = excluded.name, status = excluded.status, time_zone = excluded.time_zone,
       preferred_language = excluded.preferred_language, address = excluded.address, created_at = excluded.created_at,
       updated_at = excluded.updated_at, data = excluded.data,
       synced_at = case when ${s}.stores.data = excluded.data then greatest(${s}.stores.synced_at, excluded.synced_at)
                        else excluded.synced_at end
     where ${s}.stores.updated_at is null or ${s}.stores.updated_at <= excluded.updated_at`,
    [JSON.stringify(newest.map((r) => r.store)), newest.map((r) => r.at)],
  );
}

/** A read that found a store as the row holds it: the service's time of the answer, and the `updated_at` it showed. */
export interface StoreConfirmation {
  partnerLocationId: string;
  at: string;
  updatedAt: string;
}

/**
 * Rows found unchanged by reads, in one statement: `synced_at` moves to the read's time, never back
 * (`greatest`), and only on a row that still holds the `updated_at` the read showed.
 */
export async function confirmStores(tx: Queryable, s: string, reads: readonly StoreConfirmation[]): Promise<void> {
  if (reads.length === 0) return;
  await tx.query(
    `update ${s}.stores as t set synced_at = greatest(t.synced_at, c.at)
       from unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) as c(id, at, updated_at)
      where t.partner_location_id = c.id and t.updated_at = c.updated_at`,
    [reads.map((r) => r.partnerLocationId), reads.map((r) => r.at), reads.map((r) => r.updatedAt)],
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
