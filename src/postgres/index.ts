/**
 * `@crp/partner-sdk/postgres`: the account's stores, bookings, videos and monthly billing mirrored
 * into Postgres tables, each change exactly once. Needs the optional peer `pg` (or
 * `@electric-sql/pglite` for an embedded database), loaded when the sync starts. See docs/sync.md.
 *
 * @module
 */
import { ConfigurationError, type PartnerClient } from '../index.js';
import { runSync, type SyncOptions, type SyncProgress } from './sync.js';

export type { SyncOptions, SyncProgress } from './sync.js';
export type { Queryable } from './database.js';
export { MirrorDatabaseError, type MirrorDatabaseProblem } from './errors.js';
export { SCHEMA_VERSION } from './migrations.js';

/**
 * Keep tables of the schema `crp` (or `schema`) current with the service: `stores`, `bookings`,
 * `videos`, `billing_monthly`. Each change's rows, your `onChange(event, tx)` statements and the
 * stream's position commit in one transaction, so a crash at any point loses nothing and applies
 * nothing twice. Runs the migrations first (under a lock). Resolves when `signal` stops it, or with
 * `once: true` when the tables match the service; rejects with `MirrorDatabaseError` (naming the
 * database, never its password) when the database fails, or with `CheckpointLockedError` when
 * another sync writes the schema (use `standby: true` to wait for it instead).
 *
 * @throws ConfigurationError when `client` is not a client or an option is wrong.
 *
 * @example
 * ```ts
 * import { PartnerClient } from '@crp/partner-sdk';
 * import { syncToPostgres } from '@crp/partner-sdk/postgres';
 *
 * const client = new PartnerClient();
 * await syncToPostgres(client, {
 *   connectionString: process.env.DATABASE_URL,
 *   signal,
 *   onChange: async (event, tx) => {
 *     await tx.query('insert into my_audit (event_id, kind) values ($1, $2)', [event.id, event.type]);
 *   },
 * });
 * ```
 */
export function syncToPostgres(client: PartnerClient, options: SyncOptions): Promise<SyncProgress> {
  const c = client as Partial<PartnerClient> | undefined;
  if (typeof c?.locations?.get !== 'function' || typeof c.reports?.billingMonthly !== 'function') {
    return Promise.reject(
      new ConfigurationError(
        'syncToPostgres(client, options) takes the PartnerClient to read through as its first argument.',
      ),
    );
  }
  if (options === null || typeof options !== 'object') {
    return Promise.reject(
      new ConfigurationError(
        'syncToPostgres(client, options) needs options: { connectionString } or { pool } or { embedded }.',
      ),
    );
  }
  return runSync(client, options);
}
