/**
 * Every family of changes: the detector runs their finders in this order in each pass (bookings
 * first, videos follow visits, stores last: they read the stores the others moved), the state
 * keeps each one's part, and the checkpoint holds those parts in this order. A new family is its
 * finder's file (with its `Family`) and its line here.
 */
import { bookingFamily } from './bookings.js';
import { storeFamily } from './stores.js';
import { videoFamily } from './videos.js';

export const FAMILIES = [bookingFamily, videoFamily, storeFamily] as const;
