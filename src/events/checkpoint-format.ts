/**
 * What a checkpoint line may hold, checked before anything of it is used: a snapshot (a JSON
 * object) or a journal line (a JSON array of records). Every checkpoint goes through here (file,
 * memory, Redis or your own), so a file that is not a checkpoint, a damaged record or a record of
 * another version is refused with `CheckpointInvalidError` before the watcher saves anything, and
 * never reaches the state as a value of the wrong type.
 */
import { invalid } from './checkpoint-invalid.js';
import { FAMILIES } from './families.js';
import type { Family, FamilyRecord, SnapshotField } from './family.js';
import { count, every, id, isObject, type Check, type RecordCodec, type StateRecord } from './records.js';
import { MAX_DEPTH, parseShallow, TooDeepError } from './shallow-json.js';

export { invalid } from './checkpoint-invalid.js';

export const FORMAT = 'crp-events/1';

/**
 * The snapshot line: the fields the state shares, and each family's own (checked by its
 * `Family.snapshot`). `key`, `service`, `seenAt`, `resets` and `provisional` are missing in older ones.
 */
export interface Snapshot {
  format: typeof FORMAT;
  month: string;
  tail: { cursor: string | null; seen: number };
  fullAt: number | null;
  stores: string[];
  /** The fingerprint of the API key the watcher ran with (never the key). */
  key?: string;
  /** The service's base URL (origin and path). */
  service?: string;
  /** The latest service time the watcher saw (epoch ms). */
  seenAt?: number | null;
  /** How often the service's history went back under this checkpoint. */
  resets?: number;
  /** `seenAt` and `fullAt` were stamped on a service time no answers had confirmed; written only when true. */
  provisional?: true;
  /** A family's fields. */
  [field: string]: unknown;
}

export type Line = { snapshot: Snapshot } | { records: StateRecord[] };

const time: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const month: Check = (v) => typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v);
const nullOr =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const stateRecord = <R extends StateRecord>(kind: R[0], ...checks: Check[]): RecordCodec<R> => ({ kind, checks });
/** The state's own record kinds; each family's come from its finder. */
const STATE_RECORDS = [
  stateRecord('s', id),
  stateRecord(
    't',
    nullOr((v) => typeof v === 'string'),
    count,
  ),
  stateRecord('f', time),
  stateRecord('m', month),
  stateRecord('r', time),
  stateRecord('p'),
] as RecordCodec<FamilyRecord>[];

/** The state's own snapshot fields before the families' (in the order written). */
const SNAPSHOT_HEAD: Record<string, SnapshotField> = {
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
};
/** The state's own snapshot fields after the families'. */
const SNAPSHOT_TAIL: Record<string, SnapshotField> = {
  key: { check: (v) => typeof v === 'string' && /^[0-9a-f]{16}$/.test(v), optional: true },
  service: { check: (v) => typeof v === 'string' && v !== '', optional: true },
  seenAt: { check: nullOr(time), optional: true },
  resets: { check: count, optional: true },
  provisional: { check: (v) => v === true, optional: true },
};

/** Each record kind and each snapshot field (a field not named is refused), for a list of families. */
interface Layout {
  records: Record<string, RecordCodec<FamilyRecord>>;
  snapshot: Record<string, SnapshotField>;
}

const layouts = new WeakMap<readonly Family[], Layout>();

function layoutOf(families: readonly Family[]): Layout {
  let layout = layouts.get(families);
  if (layout) return layout;
  const codecs = [...STATE_RECORDS, ...families.flatMap((family) => family.records)];
  const fields = families.map((family) => family.snapshot);
  layout = {
    records: Object.fromEntries(codecs.map((codec) => [codec.kind, codec])),
    snapshot: Object.assign({}, SNAPSHOT_HEAD, ...fields, SNAPSHOT_TAIL),
  };
  if (Object.keys(layout.records).length !== codecs.length)
    throw new Error('Two families declare the same record kind.');
  const named = Object.keys(SNAPSHOT_HEAD).length + Object.keys(SNAPSHOT_TAIL).length;
  if (Object.keys(layout.snapshot).length !== named + fields.reduce((n, f) => n + Object.keys(f).length, 0))
    throw new Error('Two families declare the same snapshot field.');
  layouts.set(families, layout);
  return layout;
}

/**
 * One line of a checkpoint, checked: line 1 may be a snapshot or a journal line (a checkpoint
 * written before its first snapshot), every later line is a journal line.
 */
export function readLine(line: string, index: number, families: readonly Family[] = FAMILIES): Line {
  const { records, snapshot } = layoutOf(families);
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
      if (!isRecord(record, records))
        throw invalid(`${where}, record ${i + 1} is not a record this version writes (${preview(record)})`);
    });
    return { records: parsed as StateRecord[] };
  }
  if (!isObject(parsed) || parsed.format !== FORMAT)
    throw invalid(
      `${where} is ${index === 0 ? 'not a snapshot of the event watcher' : 'not a journal line'} (${FORMAT})`,
    );
  if (index > 0) throw invalid(`${where} is a second snapshot; a snapshot replaces every line before it`);
  const unknown = Object.keys(parsed).filter((field) => !(field in snapshot));
  if (unknown.length > 0) throw invalid(`the snapshot has fields this version does not know (${unknown.join(', ')})`);
  for (const [field, { check, optional }] of Object.entries(snapshot)) {
    if (!(field in parsed) ? !optional : !check(parsed[field]))
      throw invalid(`the snapshot's field ${field} is ${field in parsed ? 'not valid' : 'missing'}`);
  }
  return { snapshot: parsed as unknown as Snapshot };
}

/** A record this version writes, for a list of families (a value read from a table, checked as a line's would be). */
export const isStateRecord = (record: unknown, families: readonly Family[] = FAMILIES): record is StateRecord =>
  isRecord(record, layoutOf(families).records);

function isRecord(record: unknown, records: Layout['records']): record is StateRecord {
  if (!Array.isArray(record) || typeof record[0] !== 'string' || !Object.hasOwn(records, record[0])) return false;
  const { checks, more } = records[record[0]] as RecordCodec<FamilyRecord>;
  const fits = more
    ? record.length > checks.length && every(record.slice(checks.length + 1), more)
    : record.length === checks.length + 1;
  return fits && checks.every((check, i) => check(record[i + 1]));
}

const preview = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};
