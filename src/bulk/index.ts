/**
 * `@crp/partner-sdk/bulk`: many enrollments through the client's own rate limiter. Built on the
 * public client only (`../index.js`, kept external in the build), like any application.
 *
 * Rows are pulled from the source only when a lane is free, and each outcome is handed to
 * `onOutcome` and then dropped, so memory stays flat however many rows there are (but for what
 * deciding a repeated id needs: see same-id.ts). The limiter owns every wait for the budget; this
 * module only keeps `concurrency` rows in the client's hands, and never two rows of one id.
 */
import { ConfigurationError, PartnerError, effectInDoubt, type EnrollLocationBody, type PartnerClient } from '../index.js';
import { contentHash } from './content.js';
import { baseOf, duplicateConflict, earlierRunConflict, failedOutcome, idOf, notAttempted, settledOutcome, stopsTheRun, succeeded } from './outcome.js';
import { readBack, type ReadOne } from './settle.js';
import { enrolledRecords, rowReader } from './rows.js';
import { SameIdRows } from './same-id.js';
import type { EnrollCounts, EnrollManyOptions, EnrollOne, EnrollOutcome, EnrollOutcomeBase, EnrollRows, EnrollSummary } from './types.js';

export type * from './types.js';

const DEFAULT_CONCURRENCY = 16;

/**
 * Enroll many stores (an array, an iterable or a CSV stream, read lazily) under the key's budget
 * of `client`: each row gets one outcome, given to `onOutcome` as rows finish; resolves to the
 * counts. Rows with the same `partner_location_id` run one after the other, in order, and the
 * first decides: a later one with other content is a `conflict`, not sent. See the README's
 * "Enrolling many stores" for outcomes, `signal` and `resume`.
 *
 * @throws ConfigurationError (as a rejection) when `client` is not a client or an option is wrong.
 *
 * @example
 * ```ts
 * import { enrollMany } from '@crp/partner-sdk/bulk';
 *
 * const summary = await enrollMany(client, rows, {
 *   onOutcome: (o) => { if (o.status === 'invalid' || o.status === 'failed') console.log(o.index, o.message) },
 * });
 * console.log(summary.counts.created, summary.counts.already_enrolled);
 * ```
 */
export async function enrollMany(client: PartnerClient, rows: EnrollRows, options: EnrollManyOptions = {}): Promise<EnrollSummary> {
  if (typeof (client as Partial<PartnerClient> | undefined)?.locations?.enroll !== 'function') {
    throw new ConfigurationError('enrollMany(client, rows, options?) takes the PartnerClient to enroll through as its first argument.');
  }
  const enroll: EnrollOne = (body, o) => client.locations.enroll(body, o).withResponse();
  const readStore: ReadOne = (id, o) => client.locations.get(id, o).withResponse();
  const started = Date.now();
  const lanes = concurrencyOf(options.concurrency);
  const total = totalOf(options.total, rows);
  const reader = rowReader(rows);
  const earlierRun = await enrolledRecords(options.resume);
  const sameId = new SameIdRows();
  const counts: EnrollCounts = { created: 0, already_enrolled: 0, skipped: 0, invalid: 0, conflict: 0, failed: 0, not_attempted: 0 };

  // The caller's abort, or a failure of the run, stops the run and cancels every call under way.
  // Each call has its own signal: sixteen calls listening to one would trip Node's listener warning.
  const stop = new AbortController();
  const calls = new Set<AbortController>();
  stop.signal.addEventListener('abort', () => {
    for (const call of calls) call.abort(stop.signal.reason);
  });
  const forwardAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) forwardAbort();
  else options.signal?.addEventListener('abort', forwardAbort, { once: true });

  let read = 0;
  let inFlight = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  let outcomesBroken = false;
  let delivering: Promise<void> = Promise.resolve();

  /** The run fails: no more rows start; `cancel` also stops the calls under way (their rows could not be reported). */
  const fail = (error: unknown, cancel = true) => {
    failure ??= { error };
    if (cancel && !stop.signal.aborted) stop.abort(error);
  };

  // One outcome at a time, in the order rows finish; each lane waits for its own (back-pressure).
  const deliver = (outcome: EnrollOutcome): Promise<void> => {
    delivering = delivering.then(async () => {
      if (outcomesBroken) return;
      counts[outcome.status] += 1;
      done += 1;
      try {
        await options.onOutcome?.(outcome);
        options.onProgress?.({ done, total, inFlight, counts: { ...counts }, elapsedMs: Date.now() - started });
      } catch (error) {
        outcomesBroken = true;
        fail(error);
      }
    });
    return delivering;
  };

  /** The outcome of a row that is not to be sent: its id decided by an earlier row, or by the earlier run. */
  const decided = (base: EnrollOutcomeBase): EnrollOutcome | undefined => {
    const id = base.partner_location_id;
    if (id === undefined) return undefined;
    const first = sameId.firstOf(id, { index: base.index, contentHash: base.contentHash });
    if (first.contentHash !== base.contentHash) return duplicateConflict(base, first.index);
    // A record without a hash cannot vouch for this content: the row is sent, and the service decides.
    const record = earlierRun.get(id);
    if (record?.contentHash === undefined) return undefined;
    return record.contentHash === base.contentHash ? { ...base, status: 'skipped' } : earlierRunConflict(base, record);
  };

  /** The outcome of one row once the earlier rows of its id have ended (`ready`), or undefined when its failure stops the run. */
  const attempt = async (row: EnrollLocationBody, index: number, ready: Promise<void>): Promise<EnrollOutcome | undefined> => {
    const hash = await contentHash(row);
    await ready;
    const base = baseOf(row, index, hash);
    const known = decided(base);
    if (known) return known;
    if (stop.signal.aborted) return notAttempted(base);
    inFlight += 1;
    const call = new AbortController();
    calls.add(call);
    try {
      return succeeded(base, await enroll(row, { signal: call.signal }));
    } catch (error) {
      const stopped = stop.signal.aborted;
      if (!(error instanceof PartnerError) || stopsTheRun(error, stopped)) {
        fail(error);
        return error instanceof PartnerError ? failedOutcome(base, error, stopped) : undefined;
      }
      // The answer was lost after the service may have acted: the store, read back, says what happened.
      if (stopped || !effectInDoubt(error) || base.partner_location_id === undefined) return failedOutcome(base, error, stopped);
      return settledOutcome(base, error, await readBack(readStore, base.partner_location_id, call.signal));
    } finally {
      calls.delete(call);
      inFlight -= 1;
    }
  };

  const lane = async (): Promise<void> => {
    while (!stop.signal.aborted && !failure) {
      let next: IteratorResult<EnrollLocationBody, unknown>;
      try {
        next = await reader.next();
      } catch (error) {
        // The rows already handed to the client still finish and are reported.
        return fail(error, false);
      }
      if (next.done) return;
      // Taken in file order, before any wait: a later row of the id queues behind this one.
      const turn = sameId.turn(idOf(next.value));
      let delivered: Promise<void> | undefined;
      try {
        const outcome = await attempt(next.value, read++, turn.ready);
        // Queued before the next row of the id may start, so one id's outcomes come in file order.
        if (outcome) delivered = deliver(outcome);
      } finally {
        turn.end();
      }
      await delivered;
    }
  };

  try {
    await Promise.all(Array.from({ length: lanes }, lane));
    // Stopped by the caller: every row left in the source still gets its outcome (read, never sent).
    if (!failure && stop.signal.aborted) {
      try {
        for (let next = await reader.next(); !next.done && !failure; next = await reader.next()) {
          const base = baseOf(next.value, read++, await contentHash(next.value));
          await deliver(decided(base) ?? notAttempted(base));
        }
      } catch (error) {
        fail(error, false);
      }
    }
    await delivering;
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
  }
  if (failure) {
    await reader.close().catch(() => undefined);
    throw failure.error;
  }
  return { total: read, counts, aborted: stop.signal.aborted, elapsedMs: Date.now() - started };
}

/** `total` as given, else an array's length; a given one that an array's length contradicts is refused. */
function totalOf(total: number | undefined, rows: EnrollRows): number | undefined {
  const length = Array.isArray(rows) ? rows.length : undefined;
  if (total === undefined) return length;
  if (!Number.isInteger(total) || total < 0) {
    throw new ConfigurationError(`The option total of enrollMany() must be a whole number, 0 or more; got ${String(total)}.`);
  }
  if (length !== undefined && total !== length) {
    throw new ConfigurationError(`enrollMany() was given an array of ${length} rows and the option total ${total}; leave total out for an array (it is rows.length).`);
  }
  return total;
}

function concurrencyOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw new ConfigurationError(`The option concurrency of enrollMany() must be a whole number from 1 to 1000; got ${String(value)}.`);
  }
  return value;
}
