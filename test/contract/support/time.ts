/** Independent checks of zoned times, using Intl directly (not the sandbox's code). */
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The zone's offset at an instant, as Intl writes it: '-08:00', '+00:00'. */
export function intlOffset(timeZone: string, instant: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  const offset = (name ?? 'GMT').replace('GMT', '');
  return offset === '' ? '+00:00' : offset;
}

/** Split '2026-12-03T19:30:00-08:00' into its local parts and offset. */
export function parseZoned(iso: string) {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):00([+-]\d{2}:\d{2})$/.exec(iso);
  if (!m) throw new Error(`not a zoned time with offset: ${iso}`);
  const [, date, hh, mm, offset] = m as unknown as [string, string, string, string, string];
  const weekday = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] as string;
  return { date, minutes: Number(hh) * 60 + Number(mm), offset, weekday, instant: Date.parse(iso) };
}

export function toMinutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
}
