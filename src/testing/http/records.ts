/** Wire shapes of the emulator's records, exactly as the contract names them. */
import type { AcceptedCreator, Booking, SampleBatch, Store, Video } from '../model/model.js';
import { formatUtc, formatZoned } from '../model/zoned-time.js';

export function storeRecord(store: Store) {
  return {
    partner_location_id: store.id,
    name: store.name,
    address: { ...store.address },
    status: store.status,
    hours: { state: store.hoursState, weekly: store.weekly },
    time_zone: store.timeZone,
    preferred_language: store.preferredLanguage,
    plan: store.plan,
    dishes: store.dishes,
    contact: store.contact,
    rules: store.rules,
    created_at: formatUtc(store.createdAt),
    updated_at: formatUtc(store.updatedAt),
  };
}

/** The single-store read adds progress and the next visit. */
export function storeDetailRecord(store: Store, now: number) {
  let next: Booking | undefined;
  for (const b of store.bookings) {
    if (
      b.status === 'confirmed' &&
      b.visitAt !== null &&
      b.visitAt >= now &&
      (!next || b.visitAt < (next.visitAt ?? Infinity))
    )
      next = b;
  }
  return {
    ...storeRecord(store),
    progress: {
      visits_scheduled: store.counts.confirmed,
      visits_completed: store.counts.completed,
      videos_published: store.videos.length,
    },
    next_visit:
      next && next.visitAt !== null
        ? { reservation_id: next.id, visit_at: formatZoned(next.visitAt, next.timeZone) }
        : null,
  };
}

export function bookingRecord(b: Booking) {
  return {
    reservation_id: b.id,
    partner_location_id: b.store.id,
    status: b.status,
    visit_at: b.visitAt === null ? null : formatZoned(b.visitAt, b.timeZone),
    time_zone: b.timeZone,
    party_size: b.partySize,
    creator: { handle: b.creator.handle, platforms: [...b.creator.platforms], follower_count: b.creator.followerCount },
    acknowledged_kind: b.acknowledgedKind,
    created_at: formatUtc(b.createdAt),
  };
}

export function videoRecord(v: Video) {
  return {
    video_id: v.id,
    reservation_id: v.booking.id,
    url: videoUrl(v.platform, v.booking.creator.handle, v.id),
    platform: v.platform,
    posted_at: formatUtc(v.postedAt),
  };
}

export function creatorRecord(c: AcceptedCreator) {
  return {
    creator_id: c.creator.id,
    handle: c.creator.handle,
    platforms: [...c.creator.platforms],
    follower_count: c.creator.followerCount,
    accepted_at: formatUtc(c.acceptedAt),
  };
}

export function batchRecord(batch: SampleBatch) {
  return {
    batch_id: batch.id,
    status: batch.status,
    creators: batch.creators.map(creatorRecord),
    created_at: formatUtc(batch.createdAt),
  };
}

/** Where a creator's video lives, by platform (built when read: a million stored URLs would cost ~100 MB). */
export function videoUrl(platform: string, handle: string, id: string): string {
  const name = handle.replace(/^@/, '');
  switch (platform) {
    case 'instagram':
      return `https://www.instagram.com/reel/${id}/`;
    case 'tiktok':
      return `https://www.tiktok.com/@${name}/video/${id}`;
    case 'youtube':
      return `https://www.youtube.com/shorts/${id}`;
    default:
      return `https://www.xiaohongshu.com/explore/${id}`;
  }
}
