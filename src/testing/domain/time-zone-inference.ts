/**
 * The time zone of an enrolled store when the partner does not send one: a small table by
 * country, and by state for the United States and Canada. Anything else is UTC.
 */
const BY_COUNTRY: Record<string, string> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  FR: 'Europe/Paris',
  DE: 'Europe/Berlin',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  NL: 'Europe/Amsterdam',
  CN: 'Asia/Shanghai',
  HK: 'Asia/Hong_Kong',
  TW: 'Asia/Taipei',
  SG: 'Asia/Singapore',
  JP: 'Asia/Tokyo',
  KR: 'Asia/Seoul',
  IN: 'Asia/Kolkata',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
};

const US_STATES: Record<string, string> = {
  CA: 'America/Los_Angeles',
  WA: 'America/Los_Angeles',
  OR: 'America/Los_Angeles',
  NV: 'America/Los_Angeles',
  AZ: 'America/Phoenix',
  CO: 'America/Denver',
  UT: 'America/Denver',
  NM: 'America/Denver',
  MT: 'America/Denver',
  ID: 'America/Boise',
  WY: 'America/Denver',
  TX: 'America/Chicago',
  IL: 'America/Chicago',
  MN: 'America/Chicago',
  MO: 'America/Chicago',
  LA: 'America/Chicago',
  WI: 'America/Chicago',
  TN: 'America/Chicago',
  AL: 'America/Chicago',
  OK: 'America/Chicago',
  KS: 'America/Chicago',
  IA: 'America/Chicago',
  HI: 'Pacific/Honolulu',
  AK: 'America/Anchorage',
};

const CA_PROVINCES: Record<string, string> = {
  BC: 'America/Vancouver',
  AB: 'America/Edmonton',
  SK: 'America/Regina',
  MB: 'America/Winnipeg',
  NS: 'America/Halifax',
  NL: 'America/St_Johns',
};

export function inferTimeZone(country: string, state: string): string {
  const region = state.trim().toUpperCase();
  if (country === 'US') return US_STATES[region] ?? BY_COUNTRY.US ?? 'UTC';
  if (country === 'CA') return CA_PROVINCES[region] ?? BY_COUNTRY.CA ?? 'UTC';
  return BY_COUNTRY[country] ?? 'UTC';
}
