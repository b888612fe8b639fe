/**
 * Checks delivered events against the sandbox's ground-truth change log. A polling watcher sees
 * states, not transitions: a booking that went pending → confirmed → cancelled between two looks
 * arrives as one update (pending → cancelled). So a change counts as covered when an event for
 * the same booking shows its state or a later one; `collapsed` counts the changes covered only
 * that way, `missing` those not covered at all.
 */
import type { SandboxChange } from '../../src/testing/index.js';

export interface DeliveredEvent {
  id: string;
  type: string;
  created_at: string;
  data: {
    reservation_id: string;
    status?: string | undefined;
    acknowledged_kind?: string | null | undefined;
    video_id?: string | undefined;
  };
}

export interface Coverage {
  changes: number;
  /** Per covered change: simulated ms from the change to the first event that covers it. */
  lagsMs: number[];
  missing: SandboxChange[];
  collapsed: number;
  /** Events delivered more than once (same id). */
  duplicates: number;
  /** Bookings whose first delivered event is not `reservation.created`. */
  createdMissing: string[];
}

export function coverage(
  changes: SandboxChange[],
  events: DeliveredEvent[],
  upTo = Number.POSITIVE_INFINITY,
): Coverage {
  const byBooking = new Map<string, SandboxChange[]>();
  const videos = new Set<string>();
  for (const e of events) if (e.type === 'video.published' && e.data.video_id) videos.add(e.data.video_id);
  for (const c of changes) {
    if (c.type === 'video.published') continue;
    const list = byBooking.get(c.reservation_id) ?? [];
    list.push(c);
    byBooking.set(c.reservation_id, list);
  }
  // For each booking: the latest change index each event shows (by state, at or before its detection).
  const reached = new Map<string, number>();
  /** Per booking, in delivery order: when an event showed it, and the change index it showed. */
  const shown = new Map<string, Array<[number, number]>>();
  const videoAt = new Map<string, number>();
  for (const e of events)
    if (e.type === 'video.published' && e.data.video_id && !videoAt.has(e.data.video_id))
      videoAt.set(e.data.video_id, Date.parse(e.created_at));
  const exact = new Map<string, Set<number>>();
  const firstType = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'video.published') continue;
    const id = e.data.reservation_id;
    if (!firstType.has(id)) firstType.set(id, e.type);
    const list = byBooking.get(id) ?? [];
    const seen = Date.parse(e.created_at);
    let index = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const c = list[i] as SandboxChange;
      if (
        Date.parse(c.at) <= seen &&
        c.status === e.data.status &&
        (c.acknowledged_kind ?? null) === (e.data.acknowledged_kind ?? null)
      ) {
        index = i;
        break;
      }
    }
    if (index < 0) continue;
    const list2 = shown.get(id) ?? [];
    list2.push([seen, index]);
    shown.set(id, list2);
    reached.set(id, Math.max(reached.get(id) ?? -1, index));
    const set = exact.get(id) ?? new Set<number>();
    set.add(index);
    exact.set(id, set);
  }
  const missing: SandboxChange[] = [];
  const lagsMs: number[] = [];
  let collapsed = 0;
  let counted = 0;
  for (const c of changes) {
    if (Date.parse(c.at) > upTo) continue;
    counted++;
    const at = Date.parse(c.at);
    if (c.type === 'video.published') {
      const found = videoAt.get(c.video_id ?? '');
      if (found === undefined) missing.push(c);
      else lagsMs.push(found - at);
      continue;
    }
    const list = byBooking.get(c.reservation_id) as SandboxChange[];
    const i = list.indexOf(c);
    if ((reached.get(c.reservation_id) ?? -1) < i) {
      missing.push(c);
      continue;
    }
    if (!exact.get(c.reservation_id)?.has(i)) collapsed++;
    const first = shown.get(c.reservation_id)?.find(([, index]) => index >= i);
    if (first) lagsMs.push(first[0] - at);
  }
  const ids = events.map((e) => e.id);
  const createdMissing = [...firstType].filter(([, type]) => type !== 'reservation.created').map(([id]) => id);
  return { changes: counted, lagsMs, missing, collapsed, duplicates: ids.length - new Set(ids).size, createdMissing };
}
