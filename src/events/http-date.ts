/**
 * The `Date` header as RFC 9110 (section 5.6.7) defines it: IMF-fixdate, and the two obsolete
 * forms a recipient must still accept (RFC 850 and asctime). `Date.parse` takes far more (`1`
 * reads as 2001-01-01), so a proxy's or a runtime's odd value would pass for the service's time;
 * anything that is not one of these three forms, or names a day that does not exist, is none.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const MONTH = `(${MONTHS.join('|')})`;
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^(${DAYS.join('|')}), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC_850 = new RegExp(`^(${LONG_DAYS.join('|')}), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^(${DAYS.join('|')}) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * The instant (epoch ms) a `Date` header names, or undefined when it is not an HTTP date.
 * `reference` (epoch ms) places RFC 850's two-digit year: a year that would be more than 50 years
 * after it is the most recent past year with those digits (RFC 9110).
 *
 * @example
 * ```ts
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'); // 784111777000
 * parseHttpDate('1'); // undefined
 * ```
 */
export function parseHttpDate(value: string, reference: number = Date.now()): number | undefined {
  const text = value.trim();
  let m = IMF_FIXDATE.exec(text);
  if (m) return instant(DAYS.indexOf(m[1] as string), Number(m[4]), m[3] as string, Number(m[2]), m.slice(5, 8));
  m = RFC_850.exec(text);
  if (m)
    return instant(
      LONG_DAYS.indexOf(m[1] as string),
      fullYear(Number(m[4]), reference),
      m[3] as string,
      Number(m[2]),
      m.slice(5, 8),
    );
  m = ASCTIME.exec(text);
  if (m)
    return instant(
      DAYS.indexOf(m[1] as string),
      Number(m[7]),
      m[2] as string,
      Number((m[3] as string).trim()),
      m.slice(4, 7),
    );
  return undefined;
}

function fullYear(twoDigits: number, reference: number): number {
  const century = Math.floor(new Date(reference).getUTCFullYear() / 100) * 100;
  const year = century + twoDigits;
  return year > new Date(reference).getUTCFullYear() + 50 ? year - 100 : year;
}

/** The instant, if the date exists and falls on the day of the week it names. */
function instant(weekday: number, year: number, monthName: string, day: number, time: string[]): number | undefined {
  const [hour, minute, second] = time.map(Number) as [number, number, number];
  // RFC 9110 allows a leap second (60); the clock reads it as the last second of the minute.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const month = MONTHS.indexOf(monthName);
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), 0);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  if (date.getUTCDay() !== weekday) return undefined;
  return date.getTime();
}
