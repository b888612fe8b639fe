import { ConfigurationError } from '../index.js';
import type { EnrollResumeRecord } from './types.js';

/** Reads rows one at a time, whatever the source; safe to call from several lanes at once. */
export interface RowReader<T> {
  /** The next row, or `done` at the end. A source that throws rejects here. */
  next(): Promise<IteratorResult<T, unknown>>;
  /** Let the source release what it holds (a file), when the run ends early. */
  close(): Promise<void>;
}

export function rowReader<T>(rows: Iterable<T> | AsyncIterable<T>): RowReader<T> {
  const iterator = iteratorOf(rows);
  // One pull at a time: an async iterator need not support overlapping next() calls.
  let last: Promise<unknown> = Promise.resolve();
  let finished = false;
  return {
    next() {
      const pulled = last.then(async () => {
        if (finished) return { done: true, value: undefined } as const;
        try {
          const result = await iterator.next();
          if (result.done) finished = true;
          return result;
        } catch (error) {
          finished = true;
          throw error;
        }
      });
      last = pulled.catch(() => undefined);
      return pulled;
    },
    async close() {
      if (finished) return;
      finished = true;
      await iterator.return?.();
    },
  };
}

function iteratorOf<T>(rows: Iterable<T> | AsyncIterable<T>): Iterator<T> | AsyncIterator<T> {
  const source = rows as Partial<Iterable<T> & AsyncIterable<T>> | null | undefined;
  const asyncIterator = source?.[Symbol.asyncIterator];
  if (typeof asyncIterator === 'function') return asyncIterator.call(source);
  const iterator = source?.[Symbol.iterator];
  if (typeof iterator === 'function' && typeof source !== 'string') return iterator.call(source);
  throw new ConfigurationError('enrollMany(rows) takes an array, an iterable or an async iterable of enroll bodies.');
}

const DONE: ReadonlySet<string> = new Set(['created', 'already_enrolled', 'skipped']);

/**
 * The ids an earlier run enrolled, from its outcome records: for each, the first record that says so,
 * cut down to its id, status and `contentHash` (a row must have that hash to be skipped), so that
 * what is kept does not grow with the records' other fields (an outcome's row and location).
 */
export async function enrolledRecords(
  records: Iterable<EnrollResumeRecord> | AsyncIterable<EnrollResumeRecord> | undefined,
): Promise<Map<string, EnrollResumeRecord>> {
  const enrolled = new Map<string, EnrollResumeRecord>();
  if (records === undefined) return enrolled;
  const reader = rowReader(records);
  for (let r = await reader.next(); !r.done; r = await reader.next()) {
    const record = (r.value ?? {}) as Partial<EnrollResumeRecord>;
    const { partner_location_id: id, status } = record;
    if (typeof id === 'string' && typeof status === 'string' && DONE.has(status) && !enrolled.has(id)) {
      const contentHash = typeof record.contentHash === 'string' ? record.contentHash : undefined;
      enrolled.set(id, { partner_location_id: id, status, contentHash });
    }
  }
  return enrolled;
}
