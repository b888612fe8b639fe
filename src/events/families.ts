/**
 * Every family of changes the watcher's state keeps and its checkpoint holds, in the order their
 * parts are written to a snapshot and read back. A new family is its finder's file (with its
 * `Family`), its line here, and its finder's line in the detector.
 */
import { bookingFamily } from './bookings.js';
import { storeFamily } from './stores.js';
import { videoFamily } from './videos.js';

export const FAMILIES = [bookingFamily, videoFamily, storeFamily] as const;
