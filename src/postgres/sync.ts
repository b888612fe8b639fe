/**
 * `syncToPostgres()`: the event stream (`watchEvents`, its store family included) applied to
 * tables, consecutive changes in one transaction (batch.ts) together with the stream's checkpoint
 * and the partner's `onChange`, plus the billing reads the stream does not carry (refresher.ts), in one budget,
 * under a fenced writer lease.
 */
import type { Pool } from 'pg';
import { ConfigurationError, type PartnerClient } from '../index.js';
import {
  watchEvents,
  type PartnerEventWithStores,
  type Watcher,
  type WatchOptionsWithStores,
} from '../events/index.js';
import { CallBudget } from '../events/call-budget.js';
import { withSharedBudget } from '../events/shared-budget.js';
import { ChangeBatch } from './batch.js';
import { BatchFailed, PostgresCheckpoint } from './checkpoint.js';
import { embeddedDatabase, postgresDatabase, type MirrorDatabase, type Queryable, type Session } from './database.js';
import { databaseError } from './errors.js';
import { WriterLease } from './lease.js';
import { migrate, quoted, SCHEMA_NAME } from './migrations.js';
import { Refresher } from './refresher.js';
import { StoreConfirmations } from './confirmations.js';
import { confirmStores } from './rows.js';

/** Options of `syncToPostgres()`. Durations in milliseconds. */
export interface SyncOptions {
  /** A `postgres://` URL. One of `connectionString`, `pool` or `embedded`. */
  connectionString?: string;
  /** A node-postgres `Pool` of yours (the sync takes two connections from it and never ends it). */
  pool?: Pool;
  /** A folder for an embedded database (PGlite, `@electric-sql/pglite`): no server needed. */
  embedded?: string;
  /** The schema of the tables. @default 'crp' */
  schema?: string;
  /** Stops the sync: it resolves after the transaction in progress. */
  signal?: AbortSignal;
  /** Resolve once the tables match the service (a first load, or a catch-up), instead of running on. */
  once?: boolean;
  /**
   * Your statements for each change, on `tx` (node-postgres's `query(text, params)`), committed in the
   * same transaction as the change's rows and the stream's position: exactly once. Consecutive changes
   * share one transaction (up to 1,000): it is called for each, in order, once the rows of all of them
   * are written. If it throws, nothing of that transaction is committed (your statements for the
   * changes before it in the batch neither), the sync rejects with that error, and the changes come
   * again: it is called again for each of them.
   */
  onChange?: (event: PartnerEventWithStores, tx: Queryable) => Promise<void> | void;
  /** Wait while another process writes this schema, and take over when it stops or dies. @default false */
  standby?: boolean;
  /** How long the writer's lease outlives its last renewal. @default 15_000 */
  leaseMs?: number;
  /** Share of the key's budget for the whole sync (the stream, its store reads, and the billing reads). @default 0.5 */
  budgetShare?: number;
  /** `watchEvents`' `maxLag`. @default 900_000 */
  maxLag?: number;
  /** `watchEvents`' `minInterval`. */
  minInterval?: number;
  /** `watchEvents`' `maxInterval`. */
  maxInterval?: number;
  /** `watchEvents`' `previousKeys`, after a key rotation. */
  previousKeys?: readonly string[];
  /**
   * How often every store record is read again, at most (the stream's `stores.refreshMs`: within a
   * tenth of the budget share). @default 21_600_000 (6 hours)
   */
  storeRefreshMs?: number;
  /** Told after each poll of the stream, and about once a second while changes are applied (progress). */
  onProgress?: (progress: SyncProgress) => void;
}

/** What the sync has done so far. */
export interface SyncProgress {
  /** Changes committed. */
  events: number;
  /** API calls of the stream and of the store and billing reads. */
  calls: number;
  /** Store records mirrored: read for the first time, or read again and found changed. */
  storeReads: number;
  /** Full reconciliations completed by the stream. */
  reconciliations: number;
  /** The database, without its password. */
  database: string;
}

/** The longest a change delivered waits for its transaction while the stream goes on calling the service. */
const HELD_MS = 1_000;

const KNOWN = new Set([
  'connectionString',
  'pool',
  'embedded',
  'schema',
  'signal',
  'once',
  'onChange',
  'standby',
  'leaseMs',
  'budgetShare',
  'maxLag',
  'minInterval',
  'maxInterval',
  'previousKeys',
  'storeRefreshMs',
  'onProgress',
]);

function checked(options: SyncOptions): void {
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      throw new ConfigurationError(
        `syncToPostgres() has no option ${JSON.stringify(key)}. Options: ${[...KNOWN].join(', ')}.`,
      );
  }
  const sources = ['connectionString', 'pool', 'embedded'].filter((k) => options[k as keyof SyncOptions] !== undefined);
  if (sources.length !== 1) {
    throw new ConfigurationError(
      "syncToPostgres() needs one database: connectionString ('postgres://…'), pool (a pg Pool) or embedded (a folder); " +
        `got ${sources.length === 0 ? 'none' : sources.join(' and ')}.`,
    );
  }
  if (options.connectionString !== undefined && !/^postgres(ql)?:\/\//i.test(options.connectionString)) {
    throw new ConfigurationError('The option connectionString must be a postgres:// or postgresql:// URL.');
  }
  const schema = options.schema ?? 'crp';
  if (!SCHEMA_NAME.test(schema))
    throw new ConfigurationError(
      `The option schema must be a lower-case identifier (letters, digits, _); got ${JSON.stringify(schema)}.`,
    );
  for (const name of ['leaseMs', 'storeRefreshMs'] as const) {
    const v = options[name];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 100))
      throw new ConfigurationError(
        `The option ${name} must be a number of milliseconds, at least 100; got ${String(v)}.`,
      );
  }
  if (options.standby && options.embedded !== undefined) {
    throw new ConfigurationError(
      'The option standby is for several processes on one Postgres server; an embedded database is opened by one process.',
    );
  }
  if (options.onChange !== undefined && typeof options.onChange !== 'function')
    throw new ConfigurationError('The option onChange must be a function (event, tx) => Promise<void>.');
}

/** Open the database the options name; connection errors are told with its name. */
export function openDatabase(
  options: Pick<SyncOptions, 'connectionString' | 'pool' | 'embedded'>,
): Promise<MirrorDatabase> {
  if (options.embedded !== undefined) return embeddedDatabase(options.embedded);
  return postgresDatabase(
    options.pool ? { pool: options.pool } : { connectionString: options.connectionString as string },
  );
}

export async function runSync(client: PartnerClient, options: SyncOptions): Promise<SyncProgress> {
  checked(options);
  const schema = options.schema ?? 'crp';
  const s = quoted(schema);
  const leaseMs = options.leaseMs ?? 15_000;
  const budgetShare = options.budgetShare ?? 0.5;
  if (!(typeof budgetShare === 'number' && budgetShare > 0 && budgetShare <= 1)) {
    throw new ConfigurationError(
      `The option budgetShare must be a number above 0 and at most 1; got ${String(budgetShare)}.`,
    );
  }
  const db = await openDatabase(options);
  const sessions: Session[] = [];
  const stop = new AbortController();
  const outer = options.signal;
  const onOuter = () => stop.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let watcher: Watcher<PartnerEventWithStores> | undefined;
  let checkpoint: PostgresCheckpoint | undefined;
  let refresher: Refresher | undefined;
  let calls = 0;
  let storeReads = 0;
  const progress = (): SyncProgress => ({
    events: watcher?.stats.events ?? 0,
    calls: (watcher?.stats.calls ?? 0) + calls,
    storeReads,
    reconciliations: watcher?.stats.reconciliations ?? 0,
    database: db.name,
  });
  try {
    const main = await db.session();
    sessions.push(main);
    if (!db.embedded) {
      try {
        // A writer paused inside a transaction holds the lease row's lock only this long.
        await main.query(
          `select set_config('idle_in_transaction_session_timeout', $1, false), set_config('lock_timeout', $1, false)`,
          [`${leaseMs}ms`],
        );
      } catch (error) {
        throw databaseError(error, db.name, 'setting up the session');
      }
    }
    await migrate(main, schema, db.name);
    const renewal = db.embedded ? undefined : await db.session();
    if (renewal) sessions.push(renewal);
    const lease = new WriterLease(s, leaseMs, db.name);
    // The first step comes after the first poll, with what it found (a first load reads each store once).
    let polls = 0;
    // Stores a read found as their rows hold them: their synced_at moves once a pass, not one event each.
    const confirmations = new StoreConfirmations();
    const batch = new ChangeBatch({ schemaQuoted: s, database: db.name, onChange: options.onChange });
    const cp: PostgresCheckpoint = new PostgresCheckpoint({
      main,
      renewal,
      lease,
      batch,
      schemaQuoted: s,
      database: db.name,
      onConfirm: async (signal) => {
        const w = watcher;
        if (!w || !refresher) return;
        // Between polls only (not before each event).
        const seen = w.stats.polls + w.stats.errors;
        if (seen === polls) return;
        polls = seen;
        if (confirmations.size > 0)
          await write((tx) => confirmStores(tx, s, confirmations.take()), 'confirming store rows');
        const done = options.once === true && w.stats.reconciliations > 0;
        await refresher.step(signal, done);
        options.onProgress?.(progress());
        if (done) stop.abort();
      },
    });
    checkpoint = cp;
    // Fenced like an event's transaction: a writer that lost its lease confirms nothing.
    const write = async (work: (tx: Queryable) => Promise<void>, what = 'writing billing rows') => {
      const tx = await cp.begin();
      try {
        await work(tx);
      } catch (error) {
        await cp.rollback();
        throw databaseError(error, db.name, what);
      }
      await cp.commit();
    };
    // One budget for the stream (stores included) and billing: they take turns, so the first load
    // runs at the whole share.
    const budget = new CallBudget(client.clock, budgetShare, () => client.rateLimit);
    refresher = new Refresher({
      client,
      schemaQuoted: s,
      budget,
      billingEveryMs: options.maxLag ?? 900_000,
      write,
      read: {
        query: <Row>(text: string, params?: unknown[]) =>
          cp.tx.query<Row>(text, params).catch((error: unknown) => {
            throw databaseError(error, db.name, 'reading the mirror');
          }),
      },
      onCall: () => calls++,
    });
    const streamOptions: WatchOptionsWithStores = {
      checkpoint: cp,
      signal: stop.signal,
      standby: options.standby ?? false,
      budgetShare,
      stores: { refreshMs: options.storeRefreshMs ?? 21_600_000, onUnchanged: confirmations.add },
      // With once, a full reconciliation at once: "the tables match the service" is what it proves.
      ...(options.once ? { maxLag: 1 } : intervals(options)),
      ...(options.previousKeys ? { previousKeys: options.previousKeys } : {}),
    };
    // Changes held across the stream's calls make the batches large; they commit before a call that
    // has to wait for the budget, or once the oldest has waited a second, so none waits long unseen.
    const streamBudget = {
      take: async (signal: AbortSignal) => {
        if (budget.wouldWait() || batch.heldMs >= HELD_MS) await cp.flush();
        await budget.take(signal);
      },
      get waitedMs() {
        return budget.waitedMs;
      },
    };
    watcher = watchEvents(client, withSharedBudget(streamOptions, streamBudget));
    let progressAt = performance.now();
    try {
      for await (const event of watcher) {
        // Written with its batch, once the watcher has saved its record (checkpoint.ts).
        batch.add(event);
        if (event.type === 'location.updated') storeReads++;
        // During a long pass (a first load) too, not only between polls: about once a second.
        if (options.onProgress && performance.now() - progressAt >= 1_000) {
          progressAt = performance.now();
          options.onProgress(progress());
        }
      }
    } catch (error) {
      throw error instanceof BatchFailed ? error.error : error;
    }
    // A batch that failed while the stream was stopping (its error then not rethrown by the stream).
    if (cp.failure) throw cp.failure.error;
    return progress();
  } finally {
    outer?.removeEventListener('abort', onOuter);
    await checkpoint?.rollback();
    for (const session of sessions) session.release(true);
    await db.close().catch(() => undefined);
  }
}

function intervals(o: SyncOptions): Pick<SyncOptions, 'maxLag' | 'minInterval' | 'maxInterval'> {
  const out: Pick<SyncOptions, 'maxLag' | 'minInterval' | 'maxInterval'> = {};
  if (o.maxLag !== undefined) out.maxLag = o.maxLag;
  if (o.minInterval !== undefined) out.minInterval = o.minInterval;
  if (o.maxInterval !== undefined) out.maxInterval = o.maxInterval;
  return out;
}
