import type { Route } from '../router.js';
import { locationRoutes } from './locations.js';
import { reportRoutes } from './reports.js';
import { reservationRoutes } from './reservations.js';
import { storeListRoutes } from './store-lists.js';

/** Every endpoint of the service (as the service's specification lists them). */
export const routes: Route[] = [...locationRoutes, ...reservationRoutes, ...storeListRoutes, ...reportRoutes];
