/**
 * The store's fields as the sandbox keeps them, written from the wire contract ("Store").
 * The sandbox has its own copy on purpose: it never imports the SDK's schemas, so a mistake in
 * one shows up as a contract-test failure instead of both sides agreeing on it.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Platforms creators post on. */
export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'xiaohongshu'] as const;

export interface Address {
  line1: string;
  city: string;
  state: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** `HH:MM` spans by weekday, in the store's local time; a day left out is closed. */
export type WeeklyHours = Partial<Record<Weekday, Array<{ open: string; close: string }>>>;

export interface Plan {
  name: string;
  videos_per_month: number;
}

export interface Contact {
  name?: string;
  email?: string;
  phone?: string;
}

export interface FollowerRange {
  min?: number;
  max?: number;
}

export interface Rules {
  follower_range?: FollowerRange;
  follower_range_by_platform?: Record<string, FollowerRange>;
  platforms?: string[];
}

/** The fields a client may send at enrollment (all but the id and name and address optional). */
export interface StoreInput {
  partner_location_id: string;
  name: string;
  address: Address;
  hours?: { weekly: WeeklyHours };
  time_zone?: string;
  preferred_language?: 'en' | 'zh';
  plan?: Plan;
  dishes?: string[];
  contact?: Contact;
  rules?: Rules;
}

/** A PATCH: any of the changeable fields. */
export type StoreChanges = Partial<Omit<StoreInput, 'partner_location_id'>>;
