import type {
  AbortedError,
  ConflictError,
  EnrollLocationBody,
  Location,
  PartnerError,
  ProhibitedRuleError,
  RequestOptions,
  ValidationError,
  WithResponse,
} from '../index.js';

/**
 * How one row of `enrollMany()` ended:
 * - `created`: enrolled now (201);
 * - `already_enrolled`: the same store was already there (200, same id, name and address), or an
 *   earlier identical row of this run had enrolled it (`sameAs`, nothing sent), or the enrollment
 *   failed in a way that leaves open whether the service acted and a read of the store found it there
 *   with the row's name and address (`confirmedAfter` holds that failure);
 * - `skipped`: an earlier run's outcomes (`resume`) say it is enrolled; nothing was sent;
 * - `invalid`: refused for its content, before sending or by the service (`ValidationError`,
 *   `ProhibitedRuleError`, with `field`);
 * - `conflict`: the id is enrolled with another name or address (409), or an earlier row of `rows`
 *   (or the run `resume` continues) has the same id with other content (nothing sent): the first row
 *   of an id decides;
 * - `failed`: any other error, after the client's retries (the typed error is in `error`); when the
 *   service may have acted (5xx, time-out, dropped connection) the store was read to settle it, and
 *   `mayBeEnrolled` says whether it may still exist;
 * - `not_attempted`: the run was stopped (`signal`) before this row got an answer.
 */
export type EnrollStatus =
  | 'created'
  | 'already_enrolled'
  | 'skipped'
  | 'invalid'
  | 'conflict'
  | 'failed'
  | 'not_attempted';

/** Fields every {@link EnrollOutcome} has. */
export interface EnrollOutcomeBase {
  /** Position of the row in `rows`, from 0. */
  index: number;
  /** The row's `partner_location_id`, or undefined when it has none. */
  partner_location_id: string | undefined;
  /** The row as it was given. */
  row: EnrollLocationBody;
  /**
   * SHA-256 (hex) of the row's content: its JSON with key order ignored and undefined members
   * dropped, strings as they are. Two rows of an id are the same when this is; `resume` compares it.
   */
  contentHash: string;
}

/** A row enrolled now (`created`) or found already enrolled with the same data (`already_enrolled`). */
export interface EnrollSuccess<S extends 'created' | 'already_enrolled' = 'created' | 'already_enrolled'>
  extends EnrollOutcomeBase {
  /** `created` (201) or `already_enrolled` (200). */
  status: S;
  /** The store as the service returned it. */
  location: Location;
  /** The service's `x-request-id` (of the read, when `confirmedAfter` is set). */
  requestId: string | undefined;
  /**
   * The enrollment's own failure when it left open whether the service acted (a 5xx, a time-out,
   * a connection dropped after sending) and a read of the store then found it enrolled with the
   * row's name and address; undefined when the enrollment answered. Such a row is `already_enrolled`:
   * whether this call or an earlier one created the store cannot be told.
   */
  confirmedAfter: PartnerError | undefined;
  /**
   * Set when nothing was sent for this row: an earlier row of `rows` (this index) with the same id
   * and content had enrolled the store in this run, and this row takes its answer
   * (`already_enrolled`, `requestId` undefined).
   */
  sameAs?: number | undefined;
}

/** A row that an earlier run already enrolled (see `resume`); nothing was sent. */
export interface EnrollSkipped extends EnrollOutcomeBase {
  /** Always `skipped`. */
  status: 'skipped';
}

/** A row refused for its content. `error.requestId` is undefined when it was refused before sending. */
export interface EnrollInvalid extends EnrollOutcomeBase {
  /** Always `invalid`. */
  status: 'invalid';
  /** The refusal, with `field`. */
  error: ValidationError | ProhibitedRuleError;
  /** The refused input as a dotted path, e.g. `address.country`. */
  field: string | undefined;
  /** What was wrong and what to do. */
  message: string;
}

/**
 * A row whose id is taken by other content: the service answered 409 (enrolled with another name
 * or address), or, without sending it, an earlier row of this run (`conflictsWith`) or the earlier
 * run `resume` reads (`earlierRun`) has the same id with other content. The first row of an id decides.
 */
export interface EnrollConflict extends EnrollOutcomeBase {
  /** Always `conflict`. */
  status: 'conflict';
  /** The service's 409 answer; undefined when the clash was found before sending. */
  error: ConflictError | undefined;
  /** The index of the earlier row of `rows` with the same id and other content, when that is the clash. */
  conflictsWith: number | undefined;
  /** The record of `resume` that enrolled the id with other content, when that is the clash. */
  earlierRun: EnrollResumeRecord | undefined;
  /** What clashed, and to change the store with `client.locations.update()` or fix the row. */
  message: string;
}

/** A row that failed after the client's retries: the service failed, timed out, or could not be reached. */
export interface EnrollFailed extends EnrollOutcomeBase {
  /** Always `failed`. */
  status: 'failed';
  /** The typed error, after the client's retries (`attempts` says how many). */
  error: PartnerError;
  /**
   * True when the store may exist all the same: the service may have acted before `error` (a 5xx,
   * a time-out, a connection dropped after sending) and reading the store to find out failed too
   * (`readError`), or was cut short by `signal`. False when the failure says the service did not
   * act, or the read found no store. Enrolling the row again is safe either way.
   */
  mayBeEnrolled: boolean;
  /** The failure of the read that was to settle an unclear `error`, when it failed too. */
  readError: PartnerError | undefined;
  /** The error's message; after a read, what it found. */
  message: string;
}

/**
 * A row without an answer because the run was stopped. Its request was never sent, or was cancelled
 * on the wire; enrolling is idempotent, so enrolling it again (a resumed run does) is safe either way.
 */
export interface EnrollNotAttempted extends EnrollOutcomeBase {
  /** Always `not_attempted`. */
  status: 'not_attempted';
  /** The call the signal cancelled, when the row had been handed to the client. */
  error: AbortedError | undefined;
  /** Says the run was stopped and that enrolling the row again is safe. */
  message: string;
}

/** The one outcome of one row; narrow it by `status`. */
export type EnrollOutcome =
  | EnrollSuccess<'created'>
  | EnrollSuccess<'already_enrolled'>
  | EnrollSkipped
  | EnrollInvalid
  | EnrollConflict
  | EnrollFailed
  | EnrollNotAttempted;

/** Rows by outcome. */
export type EnrollCounts = Record<EnrollStatus, number>;

/** What `onProgress` receives after each row's outcome. */
export interface EnrollProgress {
  /** Rows with an outcome so far. */
  done: number;
  /** How many rows there are: `rows.length` for an array, else `options.total`, else undefined. */
  total: number | undefined;
  /** Rows handed to the client that have no outcome yet (waiting for the budget or on the wire). */
  inFlight: number;
  /** Rows by outcome so far. */
  counts: EnrollCounts;
  /** Milliseconds since the run started. */
  elapsedMs: number;
}

/** What `enrollMany()` resolves to once every row has its outcome. */
export interface EnrollSummary {
  /** Rows read. */
  total: number;
  /** Rows by outcome. */
  counts: EnrollCounts;
  /** True when `signal` stopped the run (the rows it stopped are `not_attempted`). */
  aborted: boolean;
  /** Milliseconds from start to the last outcome. */
  elapsedMs: number;
}

/** A record of an earlier run, as `onOutcome` gave it or as read back from a JSON-lines report. */
export interface EnrollResumeRecord {
  /** The row's store id. */
  partner_location_id?: string | undefined;
  /** Its outcome then; `created`, `already_enrolled` and `skipped` mean enrolled. */
  status: EnrollStatus | (string & {});
  /**
   * The outcome's `contentHash`. A row is skipped only when its own is the same; a record without
   * one (written before it existed) skips nothing: its rows are sent again and the service decides
   * (200 for the same name and address, 409 for others).
   */
  contentHash?: string | undefined;
}

/** Rows for `enrollMany()`: an array, any iterable, or an async iterable such as a parsed CSV stream. */
export type EnrollRows = Iterable<EnrollLocationBody> | AsyncIterable<EnrollLocationBody>;

/** Options of `enrollMany()`. */
export interface EnrollManyOptions {
  /**
   * Rows handed to the client at once. The client's rate limiter decides when each is sent, so the
   * key's budget, not this number, sets the pace; more only helps when each call is slow. Rows with
   * the same `partner_location_id` never run at once: a later one waits, in its lane, for the
   * earlier one to end, while the other lanes go on.
   * @default 16
   */
  concurrency?: number;
  /**
   * Stops the run: no more rows are started, calls waiting for the budget or on the wire are
   * cancelled, and every row without an answer, including the rest of `rows` (read, never sent),
   * is reported `not_attempted`. The promise then resolves with `aborted: true`.
   */
  signal?: AbortSignal;
  /**
   * Called with each row's outcome, in the order rows finish (not input order: use `index`). A
   * returned promise is awaited before the next outcome is given, so a slow writer slows the run
   * instead of buffering outcomes. If it throws, the run stops and the promise rejects.
   */
  onOutcome?: (outcome: EnrollOutcome) => void | Promise<void>;
  /** Called after each outcome with the counts so far. */
  onProgress?: (progress: EnrollProgress) => void;
  /**
   * Outcomes of an earlier run (its `onOutcome` records, or a JSON-lines report read back): a row
   * whose `partner_location_id` it lists as `created`, `already_enrolled` or `skipped` with the same
   * `contentHash` is reported `skipped` and not sent; with another `contentHash`, `conflict` and not
   * sent; without one, sent. Read in full before the first row (each enrolled id and its hash are
   * kept in memory).
   */
  resume?: Iterable<EnrollResumeRecord> | AsyncIterable<EnrollResumeRecord>;
  /**
   * The number of rows, when `rows` is not an array, so that `onProgress` can report a total. For
   * an array it defaults to `rows.length`; a different number is refused.
   */
  total?: number;
}

/** Enroll one store: `client.locations.enroll(...).withResponse()`. */
export type EnrollOne = (body: EnrollLocationBody, options: RequestOptions) => Promise<WithResponse<Location>>;
