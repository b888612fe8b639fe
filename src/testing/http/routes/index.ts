import type { Route } from '../router.js';
import { locationRoutes } from './locations.js';
import { reportRoutes } from './reports.js';
import { reservationRoutes } from './reservations.js';
import { storeListRoutes } from './store-lists.js';

/** Every endpoint of the service (spec §4). */
export const routes: Route[] = [...locationRoutes, ...reservationRoutes, ...storeListRoutes, ...reportRoutes];
