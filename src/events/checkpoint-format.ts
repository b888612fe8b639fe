/**
 * What a checkpoint line may hold, checked before anything of it is used: a snapshot (a JSON
 * object) or a journal line (a JSON array of records). Every checkpoint goes through here (file,
 * memory, Redis or your own), so a file that is not a checkpoint, a damaged record or a record of
 * another version is refused with `CheckpointInvalidError` before the watcher saves anything, and
 * never reaches the state as a value of the wrong type.
 */
import { CheckpointInvalidError } from '../index.js';
import { bookingRecords, isPackedBooking } from './bookings.js';
import { count, id, type Check, type RecordCodec, type StateRecord } from './records.js';
import { isPackedVideos, videoRecords } from './videos.js';
import { isPackedStore, storeRecords } from './stores.js';
import { MAX_DEPTH, parseShallow, TooDeepError } from './shallow-json.js';

export const FORMAT = 'crp-events/1';

/** The snapshot line. `key`, `service`, `seenAt` and `resets` are missing in older ones. */
export interface Snapshot {
  format: typeof FORMAT;
  month: string;
  tail: { cursor: string | null; seen: number };
  fullAt: number | null;
  stores: string[];
  bookings: Record<string, string>;
  videos: Record<string, string>;
  /** Per store number, the ids of its videos delivered; missing in older ones (they counted). */
  videoIds?: Record<string, string[]>;
  /** Per store number, its record as last read (the store family); missing when none was read. */
  locations?: Record<string, string>;
  /** The fingerprint of the API key the watcher ran with (never the key). */
  key?: string;
  /** The service's base URL (origin and path). */
  service?: string;
  /** The latest service time the watcher saw (epoch ms). */
  seenAt?: number | null;
  /** How often the service's history went back under this checkpoint. */
  resets?: number;
}

export type Line = { snapshot: Snapshot } | { records: StateRecord[] };

const time: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const month: Check = (v) => typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v);
const nullOr =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const stateRecord = <R extends StateRecord>(kind: R[0], ...checks: Check[]): RecordCodec<R> => ({ kind, checks });
/** Each record kind: the state's own, and each family's from its finder. */
const RECORDS = Object.fromEntries(
  [
    stateRecord('s', id),
    stateRecord(
      't',
      nullOr((v) => typeof v === 'string'),
      count,
    ),
    stateRecord('f', time),
    stateRecord('m', month),
    stateRecord('r', time),
    bookingRecords,
    videoRecords,
    storeRecords,
  ].map((codec) => [codec.kind, codec as RecordCodec<StateRecord>]),
) as Record<StateRecord[0], RecordCodec<StateRecord>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const every = (values: unknown[], check: Check) => values.every(check);

/** Each snapshot field and its check; a field not named here is refused. */
const SNAPSHOT: Record<keyof Snapshot, { check: Check; optional?: boolean }> = {
  format: { check: (v) => v === FORMAT },
  month: { check: (v) => v === '' || month(v) },
  tail: {
    check: (v) =>
      isObject(v) &&
      Object.keys(v).length === 2 &&
      (v.cursor === null || typeof v.cursor === 'string') &&
      count(v.seen),
  },
  fullAt: { check: nullOr(time) },
  stores: { check: (v) => Array.isArray(v) && every(v, id) && new Set(v).size === v.length },
  bookings: { check: (v) => isObject(v) && every(Object.keys(v), id) && every(Object.values(v), isPackedBooking) },
  videos: {
    check: (v) =>
      isObject(v) &&
      every(Object.keys(v), (k) => /^(0|[1-9]\d*)$/.test(k as string)) &&
      every(Object.values(v), isPackedVideos),
  },
  videoIds: {
    check: (v) => isObject(v) && every(Object.values(v), (ids) => Array.isArray(ids) && every(ids, id)),
    optional: true,
  },
  locations: {
    check: (v) =>
      isObject(v) &&
      every(Object.keys(v), (k) => /^(0|[1-9]\d*)$/.test(k as string)) &&
      every(Object.values(v), isPackedStore),
    optional: true,
  },
  key: { check: (v) => typeof v === 'string' && /^[0-9a-f]{16}$/.test(v), optional: true },
  service: { check: (v) => typeof v === 'string' && v !== '', optional: true },
  seenAt: { check: nullOr(time), optional: true },
  resets: { check: count, optional: true },
};

/**
 * One line of a checkpoint, checked: line 1 may be a snapshot or a journal line (a checkpoint
 * written before its first snapshot), every later line is a journal line.
 */
export function readLine(line: string, index: number): Line {
  const where = `line ${index + 1}`;
  let parsed: unknown;
  try {
    parsed = parseShallow(line);
  } catch (cause) {
    throw invalid(
      `${where} is not JSON${cause instanceof TooDeepError ? ` of at most ${MAX_DEPTH} levels` : ''}`,
      cause,
    );
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) throw invalid(`${where} is an empty list, not a journal line`);
    parsed.forEach((record, i) => {
      if (!isRecord(record))
        throw invalid(`${where}, record ${i + 1} is not a record this version writes (${preview(record)})`);
    });
    return { records: parsed as StateRecord[] };
  }
  if (!isObject(parsed) || parsed.format !== FORMAT)
    throw invalid(
      `${where} is ${index === 0 ? 'not a snapshot of the event watcher' : 'not a journal line'} (${FORMAT})`,
    );
  if (index > 0) throw invalid(`${where} is a second snapshot; a snapshot replaces every line before it`);
  const unknown = Object.keys(parsed).filter((field) => !(field in SNAPSHOT));
  if (unknown.length > 0) throw invalid(`the snapshot has fields this version does not know (${unknown.join(', ')})`);
  for (const [field, { check, optional }] of Object.entries(SNAPSHOT)) {
    if (!(field in parsed) ? !optional : !check(parsed[field]))
      throw invalid(`the snapshot's field ${field} is ${field in parsed ? 'not valid' : 'missing'}`);
  }
  return { snapshot: parsed as unknown as Snapshot };
}

function isRecord(record: unknown): record is StateRecord {
  if (!Array.isArray(record) || typeof record[0] !== 'string' || !Object.hasOwn(RECORDS, record[0])) return false;
  const { checks, more } = RECORDS[record[0] as StateRecord[0]];
  const fits = more
    ? record.length > checks.length && every(record.slice(checks.length + 1), more)
    : record.length === checks.length + 1;
  return fits && checks.every((check, i) => check(record[i + 1]));
}

const preview = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** A checkpoint that is not one the watcher can go on from: what is wrong, and what to do. */
export function invalid(why: string, cause?: unknown): CheckpointInvalidError {
  return new CheckpointInvalidError(
    `The checkpoint is not one this version's event watcher can go on from: ${why}. Nothing was changed. ` +
      "If it is another program's data, give the watcher a checkpoint of its own (a new path or key); if it is a damaged " +
      'checkpoint, move it aside or delete it, and the watcher starts again as set by startFrom.',
    { cause },
  );
}
