import { WEEKDAYS, type Address, type Weekday, type WeeklyHours } from '../model/store-fields.js';
import { createRng, hashString } from '../model/random.js';

/**
 * The sandbox's stand-in for the service's opening-hours lookup.
 * Deterministic rule: a postal code ending in "0" is not found (the store is on hold with
 * hours.state "missing"); any other address gets weekly hours derived from a hash of the address.
 */
export function lookUpHours(address: Address): WeeklyHours | null {
  if (address.postal_code.trim().endsWith('0')) return null;
  const rng = createRng(
    hashString(JSON.stringify([address.line1, address.city, address.state, address.postal_code, address.country])),
  );
  const closedDay = rng.chance(0.5) ? rng.pick(WEEKDAYS) : undefined;
  const split = rng.chance(0.5);
  const weekly: WeeklyHours = {};
  for (const day of WEEKDAYS) {
    if (day === closedDay) continue;
    weekly[day as Weekday] = split
      ? [
          { open: rng.pick(['11:00', '11:30']), close: rng.pick(['14:30', '15:00']) },
          { open: rng.pick(['17:00', '17:30']), close: rng.pick(['21:30', '22:00']) },
        ]
      : [{ open: rng.pick(['10:00', '11:00', '12:00']), close: rng.pick(['21:00', '22:00', '23:00']) }];
  }
  return weekly;
}
