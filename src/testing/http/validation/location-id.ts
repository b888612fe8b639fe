/**
 * `partner_location_id` as the contract states it ("1..128 chars of `[A-Za-z0-9._:-]`"), plus the
 * one limit the character set leaves open: the id goes into URL paths, and a URL parser drops `.`
 * and climbs `..`, so a store enrolled as `..` could never be reached at `/locations/{id}`.
 * Percent-encoded dots (`%2e`, which URL parsers collapse too) are already outside the set.
 */
export const LOCATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
export const LOCATION_ID_FORM = '1 to 128 characters of letters, digits, ".", "_", ":" or "-"';

const DOT_SEGMENT = /^\.{1,2}$/;

export const isDotSegment = (id: string): boolean => DOT_SEGMENT.test(id);

export const DOT_SEGMENT_SAYS = 'must not be "." or ".." (a URL would drop or climb that path segment)';
