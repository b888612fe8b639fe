/**
 * The statements that write the service's objects into the mirror's tables. Each upsert keeps the
 * newer state: a booking or video by when the stream found it (`observed_at`, the service's clock),
 * a store by its own `updated_at`; an older state (a replay, a late writer) changes nothing.
 */
import type { BillingRow, Location } from '../index.js';
import type { PartnerEvent } from '../events/index.js';
import type { Queryable } from './database.js';

export async function applyEvent(tx: Queryable, s: string, event: PartnerEvent): Promise<void> {
  if (event.type === 'video.published') {
    const v = event.data;
    await tx.query(
      `insert into ${s}.videos (video_id, partner_location_id, reservation_id, url, platform, posted_at, data, observed_at, synced_at)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, now())
       on conflict (video_id) do update set partner_location_id = excluded.partner_location_id, reservation_id = excluded.reservation_id,
         url = excluded.url, platform = excluded.platform, posted_at = excluded.posted_at, data = excluded.data,
         observed_at = excluded.observed_at, synced_at = excluded.synced_at
       where ${s}.videos.observed_at <= excluded.observed_at`,
      [
        v.video_id,
        event.partner_location_id,
        v.reservation_id,
        v.url,
        v.platform,
        v.posted_at,
        JSON.stringify(v),
        event.created_at,
      ],
    );
    return;
  }
  const b = event.data;
  await tx.query(
    `insert into ${s}.bookings (reservation_id, partner_location_id, status, visit_at, time_zone, party_size,
       acknowledged_kind, created_at, data, observed_at, synced_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, now())
     on conflict (reservation_id) do update set partner_location_id = excluded.partner_location_id, status = excluded.status,
       visit_at = excluded.visit_at, time_zone = excluded.time_zone, party_size = excluded.party_size,
       acknowledged_kind = excluded.acknowledged_kind, created_at = excluded.created_at, data = excluded.data,
       observed_at = excluded.observed_at, synced_at = excluded.synced_at
     where ${s}.bookings.observed_at <= excluded.observed_at`,
    [
      b.reservation_id,
      b.partner_location_id,
      b.status,
      b.visit_at,
      b.time_zone,
      b.party_size,
      b.acknowledged_kind,
      b.created_at,
      JSON.stringify(b),
      event.created_at,
    ],
  );
}

/**
 * Many stores read at `readAt` (the service's time of the answer), in one statement; a store whose
 * `updated_at` is older than the row's changes nothing. `synced_at` is `readAt`, and never moves
 * back for a store read again as the row holds it.
 */
export async function upsertStores(
  tx: Queryable,
  s: string,
  stores: readonly Location[],
  readAt: string,
): Promise<void> {
  if (stores.length === 0) return;
  await tx.query(
    `insert into ${s}.stores (partner_location_id, name, status, time_zone, preferred_language, address, created_at, updated_at, data, synced_at)
     select e->>'partner_location_id', e->>'name', e->>'status', e->>'time_zone', e->>'preferred_language', e->'address',
            (e->>'created_at')::timestamptz, (e->>'updated_at')::timestamptz, e, $2
       from jsonb_array_elements($1::jsonb) as e
     on conflict (partner_location_id) do update set name = excluded.name, status = excluded.status, time_zone = excluded.time_zone,
       preferred_language = excluded.preferred_language, address = excluded.address, created_at = excluded.created_at,
       updated_at = excluded.updated_at, data = excluded.data,
       synced_at = case when ${s}.stores.data = excluded.data then greatest(${s}.stores.synced_at, excluded.synced_at)
                        else excluded.synced_at end
     where ${s}.stores.updated_at is null or ${s}.stores.updated_at <= excluded.updated_at`,
    [JSON.stringify(stores), readAt],
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
