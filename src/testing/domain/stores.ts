import { DomainError } from '../model/domain-error.js';
import type { StoreChanges, StoreInput } from '../model/store-fields.js';
import { lookUpHours } from './hours-lookup.js';
import { emptyCounts, type Account, type Store } from '../model/model.js';
import { newBatch, usesSampleReview } from './sample-review.js';
import { cancelOpenBookings, startArrivals } from '../simulation/simulation.js';
import { inferTimeZone } from './time-zone-inference.js';
import type { World } from '../model/world.js';

export function findStore(account: Account, id: string): Store {
  const store = account.stores.get(id);
  if (!store) throw new DomainError({ kind: 'store_not_found', storeId: id });
  return store;
}

/**
 * Enroll a store. Same id with the same name and address: the existing store, unchanged
 * (`created: false`). Same id with a different name or address: refused.
 */
export function enroll(world: World, account: Account, body: StoreInput): { store: Store; created: boolean } {
  const existing = account.stores.get(body.partner_location_id);
  if (existing) {
    if (existing.name === body.name && sameAddress(existing.address, body.address))
      return { store: existing, created: false };
    throw new DomainError({ kind: 'store_enrolled_differently', storeId: body.partner_location_id });
  }
  const now = world.clock.nowMs();
  const weekly = body.hours ? body.hours.weekly : lookUpHours(body.address);
  const store: Store = {
    seq: world.nextSeq(),
    account,
    id: body.partner_location_id,
    name: body.name,
    address: { ...body.address },
    status: 'active',
    weekly,
    hoursState: weekly ? 'found' : 'missing',
    timeZone: body.time_zone ?? inferTimeZone(body.address.country, body.address.state),
    preferredLanguage: body.preferred_language ?? 'en',
    plan: body.plan ?? null,
    dishes: body.dishes ?? [],
    contact: body.contact ?? null,
    rules: body.rules ?? null,
    createdAt: now,
    updatedAt: now,
    rng: world.storeRng(account, body.partner_location_id),
    arrivalChain: 0,
    bookings: [],
    videos: [],
    creators: [],
    creatorIds: new Set(),
    batches: [],
    counts: emptyCounts(),
    unacknowledged: 0,
    monthly: new Map(),
  };
  account.stores.set(store.id, store);
  account.storeList.push(store);
  if (usesSampleReview(world, store)) newBatch(world, store);
  startArrivals(world, store);
  return { store, created: true };
}

/** PATCH: change the listed fields. Sending hours makes a store on hold found. */
export function update(world: World, store: Store, body: StoreChanges): void {
  if (body.name !== undefined) store.name = body.name;
  if (body.address !== undefined) store.address = { ...body.address };
  if (body.hours !== undefined) {
    store.weekly = body.hours.weekly;
    store.hoursState = 'found';
  }
  if (body.time_zone !== undefined) store.timeZone = body.time_zone;
  if (body.preferred_language !== undefined) store.preferredLanguage = body.preferred_language;
  if (body.plan !== undefined) store.plan = body.plan;
  if (body.dishes !== undefined) store.dishes = body.dishes;
  if (body.contact !== undefined) store.contact = body.contact;
  if (body.rules !== undefined) store.rules = body.rules;
  store.updatedAt = world.clock.nowMs();
  startArrivals(world, store);
}

export type Lifecycle = 'pause' | 'resume' | 'terminate';

/** pause: active|paused → paused; resume: paused|active → active; terminate: any → terminated. */
export function changeStatus(world: World, store: Store, action: Lifecycle): void {
  if (action !== 'terminate' && store.status === 'terminated') {
    throw new DomainError({ kind: 'store_terminated', storeId: store.id, action });
  }
  const to = action === 'pause' ? 'paused' : action === 'resume' ? 'active' : 'terminated';
  if (store.status === to) return;
  store.status = to;
  store.updatedAt = world.clock.nowMs();
  if (to === 'terminated') cancelOpenBookings(world, store);
  startArrivals(world, store);
}

function sameAddress(a: Store['address'], b: Store['address']): boolean {
  return (
    a.line1 === b.line1 &&
    a.city === b.city &&
    a.state === b.state &&
    a.postal_code === b.postal_code &&
    a.country === b.country
  );
}
