/**
 * One `enrollMany()` run: the state its lanes share (the rows read, the calls under way, the
 * outcomes delivered, the failure that stops it) and what each lane does with a row.
 *
 * Rows are pulled from the source only when a lane is free, and each outcome is handed to
 * `onOutcome` and then dropped, so memory stays flat however many rows there are (but for what
 * deciding a repeated id needs: see same-id.ts). The limiter owns every wait for the budget; a run
 * only keeps `concurrency` rows in the client's hands, and never two rows of one id.
 */
import {
  ConfigurationError,
  PartnerError,
  effectInDoubt,
  type EnrollLocationBody,
  type PartnerClient,
} from '../index.js';
import { contentHash } from './content.js';
import {
  baseOf,
  duplicateConflict,
  earlierRunConflict,
  failedOutcome,
  idOf,
  notAttempted,
  sameAsEarlier,
  settledOutcome,
  stopsTheRun,
  succeeded,
} from './outcome.js';
import { enrolledRecords, rowReader, type RowReader } from './rows.js';
import { SameIdRows } from './same-id.js';
import { readBack, type ReadOne } from './settle.js';
import type {
  EnrollCounts,
  EnrollManyOptions,
  EnrollOne,
  EnrollOutcome,
  EnrollOutcomeBase,
  EnrollResumeRecord,
  EnrollRows,
  EnrollSummary,
} from './types.js';

const DEFAULT_CONCURRENCY = 16;

export class EnrollRun {
  private readonly enroll: EnrollOne;
  private readonly readStore: ReadOne;
  private readonly started = Date.now();
  private readonly lanes: number;
  private readonly total: number | undefined;
  private readonly reader: RowReader<EnrollLocationBody>;
  private readonly sameId = new SameIdRows();
  private readonly counts: EnrollCounts = {
    created: 0,
    already_enrolled: 0,
    skipped: 0,
    invalid: 0,
    conflict: 0,
    failed: 0,
    not_attempted: 0,
  };
  /** The caller's abort, or a failure of the run: no more rows start, every call under way is cancelled. */
  private readonly stop = new AbortController();
  /** Each call has its own signal: sixteen calls listening to one would trip Node's listener warning. */
  private readonly calls = new Set<AbortController>();
  private earlierRun = new Map<string, EnrollResumeRecord>();
  private read = 0;
  private inFlight = 0;
  private done = 0;
  private failure: { error: unknown } | undefined;
  private outcomesBroken = false;
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    client: PartnerClient,
    rows: EnrollRows,
    private readonly options: EnrollManyOptions,
  ) {
    if (typeof (client as Partial<PartnerClient> | undefined)?.locations?.enroll !== 'function') {
      throw new ConfigurationError(
        'enrollMany(client, rows, options?) takes the PartnerClient to enroll through as its first argument.',
      );
    }
    this.enroll = (body, o) => client.locations.enroll(body, o).withResponse();
    this.readStore = (id, o) => client.locations.get(id, o).withResponse();
    this.lanes = concurrencyOf(options.concurrency);
    this.total = totalOf(options.total, rows);
    this.reader = rowReader(rows);
    this.stop.signal.addEventListener('abort', () => {
      for (const call of this.calls) call.abort(this.stop.signal.reason);
    });
  }

  async run(): Promise<EnrollSummary> {
    this.earlierRun = await enrolledRecords(this.options.resume);
    const { signal } = this.options;
    const forwardAbort = () => this.stop.abort(signal?.reason);
    if (signal?.aborted) forwardAbort();
    else signal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      await Promise.all(Array.from({ length: this.lanes }, () => this.lane()));
      // Stopped by the caller: every row left in the source still gets its outcome (read, never sent).
      if (!this.failure && this.stop.signal.aborted) await this.reportTheRest();
      await this.delivering;
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
    }
    if (this.failure) {
      await this.reader.close().catch(() => undefined);
      throw this.failure.error;
    }
    return {
      total: this.read,
      counts: this.counts,
      aborted: this.stop.signal.aborted,
      elapsedMs: Date.now() - this.started,
    };
  }

  /** The run fails: no more rows start; `cancel` also stops the calls under way (their rows could not be reported). */
  private fail(error: unknown, cancel = true): void {
    this.failure ??= { error };
    if (cancel && !this.stop.signal.aborted) this.stop.abort(error);
  }

  /** One outcome at a time, in the order rows finish; each lane waits for its own (back-pressure). */
  private deliver(outcome: EnrollOutcome): Promise<void> {
    this.delivering = this.delivering.then(async () => {
      if (this.outcomesBroken) return;
      this.counts[outcome.status] += 1;
      this.done += 1;
      try {
        await this.options.onOutcome?.(outcome);
        this.options.onProgress?.({
          done: this.done,
          total: this.total,
          inFlight: this.inFlight,
          counts: { ...this.counts },
          elapsedMs: Date.now() - this.started,
        });
      } catch (error) {
        this.outcomesBroken = true;
        this.fail(error);
      }
    });
    return this.delivering;
  }

  /**
   * The outcome of a row that is not to be sent: its id decided by an earlier row (other content:
   * a conflict; the same content, enrolled by this run: that answer), or by the earlier run.
   */
  private decided(base: EnrollOutcomeBase): EnrollOutcome | undefined {
    const id = base.partner_location_id;
    if (id === undefined) return undefined;
    const first = this.sameId.firstOf(id, { index: base.index, contentHash: base.contentHash });
    if (first.contentHash !== base.contentHash) return duplicateConflict(base, first.index);
    const earlier = this.sameId.enrolledRow(id);
    if (earlier) return sameAsEarlier(base, earlier);
    // A record without a hash cannot vouch for this content: the row is sent, and the service decides.
    const record = this.earlierRun.get(id);
    if (record?.contentHash === undefined) return undefined;
    return record.contentHash === base.contentHash ? { ...base, status: 'skipped' } : earlierRunConflict(base, record);
  }

  /** The outcome of one row once the earlier rows of its id have ended (`ready`), or undefined when its failure stops the run. */
  private async attempt(
    row: EnrollLocationBody,
    index: number,
    ready: Promise<void>,
  ): Promise<EnrollOutcome | undefined> {
    const hash = await contentHash(row);
    await ready;
    const base = baseOf(row, index, hash);
    const known = this.decided(base);
    if (known) return known;
    if (this.stop.signal.aborted) return notAttempted(base);
    const outcome = await this.send(row, base);
    if (
      outcome &&
      (outcome.status === 'created' || outcome.status === 'already_enrolled') &&
      base.partner_location_id !== undefined
    ) {
      this.sameId.enrolledBy(base.partner_location_id, { index, location: outcome.location });
    }
    return outcome;
  }

  private async send(row: EnrollLocationBody, base: EnrollOutcomeBase): Promise<EnrollOutcome | undefined> {
    this.inFlight += 1;
    const call = new AbortController();
    this.calls.add(call);
    try {
      return succeeded(base, await this.enroll(row, { signal: call.signal }));
    } catch (error) {
      const stopped = this.stop.signal.aborted;
      if (!(error instanceof PartnerError) || stopsTheRun(error, stopped)) {
        this.fail(error);
        return error instanceof PartnerError ? failedOutcome(base, error, stopped) : undefined;
      }
      // The answer was lost after the service may have acted: the store, read back, says what happened.
      if (stopped || !effectInDoubt(error) || base.partner_location_id === undefined)
        return failedOutcome(base, error, stopped);
      return settledOutcome(base, error, await readBack(this.readStore, base.partner_location_id, call.signal));
    } finally {
      this.calls.delete(call);
      this.inFlight -= 1;
    }
  }

  private async lane(): Promise<void> {
    while (!this.stop.signal.aborted && !this.failure) {
      let next: IteratorResult<EnrollLocationBody, unknown>;
      try {
        next = await this.reader.next();
      } catch (error) {
        // The rows already handed to the client still finish and are reported.
        return this.fail(error, false);
      }
      if (next.done) return;
      // Taken in file order, before any wait: a later row of the id queues behind this one.
      const turn = this.sameId.turn(idOf(next.value));
      let delivered: Promise<void> | undefined;
      try {
        const outcome = await this.attempt(next.value, this.read++, turn.ready);
        // Queued before the next row of the id may start, so one id's outcomes come in file order.
        if (outcome) delivered = this.deliver(outcome);
      } finally {
        turn.end();
      }
      await delivered;
    }
  }

  private async reportTheRest(): Promise<void> {
    try {
      for (let next = await this.reader.next(); !next.done && !this.failure; next = await this.reader.next()) {
        const base = baseOf(next.value, this.read++, await contentHash(next.value));
        await this.deliver(this.decided(base) ?? notAttempted(base));
      }
    } catch (error) {
      this.fail(error, false);
    }
  }
}

/** `total` as given, else an array's length; a given one that an array's length contradicts is refused. */
function totalOf(total: number | undefined, rows: EnrollRows): number | undefined {
  const length = Array.isArray(rows) ? rows.length : undefined;
  if (total === undefined) return length;
  if (!Number.isInteger(total) || total < 0) {
    throw new ConfigurationError(
      `The option total of enrollMany() must be a whole number, 0 or more; got ${String(total)}.`,
    );
  }
  if (length !== undefined && total !== length) {
    throw new ConfigurationError(
      `enrollMany() was given an array of ${length} rows and the option total ${total}; leave total out for an array (it is rows.length).`,
    );
  }
  return total;
}

function concurrencyOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw new ConfigurationError(
      `The option concurrency of enrollMany() must be a whole number from 1 to 1000; got ${String(value)}.`,
    );
  }
  return value;
}
