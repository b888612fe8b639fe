/** The emulator's in-memory state: accounts, stores, bookings, videos, creators, sample batches. */
import type { Address, Contact, Plan, Rules, WeeklyHours } from './store-fields.js';
import type { ChangeLog } from './change-log.js';
import type { World } from './world.js';
import type { Rng } from './random.js';

export type StoreStatus = 'active' | 'paused' | 'terminated';
export type BookingStatus = 'pending' | 'confirmed' | 'rejected' | 'cancelled' | 'completed' | 'no_show';
export type AcknowledgedKind = 'forwarded_to_manager' | 'acknowledged_self';
export type BatchStatus = 'awaiting_decision' | 'approved' | 'replaced';

/** A creator in the operator's network. Never any contact details (as the service's specification requires). */
export interface CreatorProfile {
  id: string;
  handle: string;
  platforms: string[];
  followerCount: number;
}

/** Counts per UTC month for GET /billing/monthly. */
export interface MonthCounts {
  videos: number;
  completed: number;
  noShows: number;
}

export interface Account {
  id: string;
  stores: Map<string, Store>;
  /** Stores in enrollment order (paged by `seq`). */
  storeList: Store[];
  /** Bookings in creation order (paged by `seq`). */
  bookingList: Booking[];
  surchargePerVideoCents: number;
  currency: string;
  /** Every booking and video change of the account, with its simulated time. */
  changes: ChangeLog;
  /** The world the account lives in (what scheduled steps of its bookings run against). */
  world: World;
}

export interface Store {
  seq: number;
  account: Account;
  id: string;
  name: string;
  address: Address;
  status: StoreStatus;
  weekly: WeeklyHours | null;
  hoursState: 'found' | 'missing';
  timeZone: string;
  preferredLanguage: 'en' | 'zh';
  plan: Plan | null;
  dishes: string[];
  contact: Contact | null;
  rules: Rules | null;
  createdAt: number;
  updatedAt: number;
  /** This store's own random stream, so one store's traffic does not depend on another's. */
  rng: Rng;
  /** The id of the booking-arrival chain now running; 0 when none is scheduled. */
  arrivalChain: number;
  bookings: Booking[];
  videos: Video[];
  creators: AcceptedCreator[];
  creatorIds: Set<string>;
  batches: SampleBatch[];
  counts: Record<BookingStatus, number>;
  unacknowledged: number;
  /** Keyed by `monthKey()`: 202612 for 2026-12. */
  monthly: Map<number, MonthCounts>;
}

export interface Booking {
  seq: number;
  id: string;
  store: Store;
  status: BookingStatus;
  visitAt: number | null;
  timeZone: string;
  partySize: number;
  creator: CreatorProfile;
  acknowledgedKind: AcknowledgedKind | null;
  createdAt: number;
}

export interface Video {
  seq: number;
  id: string;
  /** The completed visit the video came from. */
  booking: Booking;
  platform: string;
  postedAt: number;
}

export interface AcceptedCreator {
  seq: number;
  creator: CreatorProfile;
  acceptedAt: number;
}

export interface SampleBatch {
  seq: number;
  id: string;
  status: BatchStatus;
  creators: AcceptedCreator[];
  createdAt: number;
}

export function emptyCounts(): Record<BookingStatus, number> {
  return { pending: 0, confirmed: 0, rejected: 0, cancelled: 0, completed: 0, no_show: 0 };
}
