/**
 * The mirror's tables, as versioned migrations. The first sync runs them inside one transaction
 * under a transaction-level advisory lock (two processes starting at once: one migrates, the other
 * waits and finds the work done). Migrations only add (tables, columns, indexes): never a drop,
 * never a rewrite of rows they did not create. A schema written by a newer package is refused.
 */
import type { Queryable } from './database.js';
import { databaseError, schemaError } from './errors.js';

/** Each entry is one version: its statements, in order. `%s` is the quoted schema. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `create table if not exists %s.stores (
      partner_location_id text primary key,
      name text,
      status text,
      time_zone text,
      preferred_language text,
      address jsonb,
      created_at timestamptz,
      updated_at timestamptz,
      data jsonb not null,
      synced_at timestamptz not null default now())`,
    `create table if not exists %s.bookings (
      reservation_id text primary key,
      partner_location_id text not null,
      status text not null,
      visit_at timestamptz,
      time_zone text,
      party_size integer,
      acknowledged_kind text,
      created_at timestamptz,
      data jsonb not null,
      observed_at timestamptz not null,
      synced_at timestamptz not null default now())`,
    `create index if not exists bookings_store on %s.bookings (partner_location_id)`,
    `create table if not exists %s.videos (
      video_id text primary key,
      partner_location_id text not null,
      reservation_id text,
      url text,
      platform text,
      posted_at timestamptz,
      data jsonb not null,
      observed_at timestamptz not null,
      synced_at timestamptz not null default now())`,
    `create index if not exists videos_store on %s.videos (partner_location_id)`,
    `create table if not exists %s.billing_monthly (
      partner_location_id text not null,
      month text not null,
      videos_published integer not null,
      completed_visits integer not null,
      no_shows integer not null,
      data jsonb not null,
      synced_at timestamptz not null default now(),
      primary key (partner_location_id, month))`,
    `create table if not exists %s.stream_records (id bigserial primary key, record text not null)`,
    `create table if not exists %s.writer_lease (
      name text primary key,
      holder text,
      fence bigint not null default 0,
      expires_at timestamptz,
      holder_pid integer,
      holder_host text)`,
    `insert into %s.writer_lease (name) values ('writer') on conflict (name) do nothing`,
  ],
  [
    // The stream's state that grows with the account, read when needed instead of held in the process.
    // Its bookings, one row each (stream-bookings.ts).
    `create table if not exists %s.stream_bookings (
      reservation_id text primary key,
      store integer not null,
      status text not null,
      ack text,
      visit bigint,
      packed text not null)`,
    `create index if not exists stream_bookings_open on %s.stream_bookings (status, visit) where status in ('pending', 'confirmed')`,
    // The ids of each store's videos delivered, read a store at a time (stream-videos.ts).
    `create table if not exists %s.stream_videos (store integer not null, video_id text not null, primary key (store, video_id))`,
  ],
  [
    // The stores, by the stream's store number: each one's id, record as last read and video counts
    // (stream-stores.ts), read when the stream starts instead of a snapshot listing them all.
    `create table if not exists %s.stream_stores (
      store integer primary key,
      id text not null,
      location text,
      videos text,
      month text not null)`,
  ],
];

/** The newest version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The columns each table must have (name → type as information_schema tells it): what a hand-altered table is checked against. */
export const COLUMNS: Record<string, Record<string, string>> = {
  stores: {
    partner_location_id: 'text',
    name: 'text',
    status: 'text',
    time_zone: 'text',
    preferred_language: 'text',
    address: 'jsonb',
    created_at: 'timestamp with time zone',
    updated_at: 'timestamp with time zone',
    data: 'jsonb',
    synced_at: 'timestamp with time zone',
  },
  bookings: {
    reservation_id: 'text',
    partner_location_id: 'text',
    status: 'text',
    visit_at: 'timestamp with time zone',
    time_zone: 'text',
    party_size: 'integer',
    acknowledged_kind: 'text',
    created_at: 'timestamp with time zone',
    data: 'jsonb',
    observed_at: 'timestamp with time zone',
    synced_at: 'timestamp with time zone',
  },
  videos: {
    video_id: 'text',
    partner_location_id: 'text',
    reservation_id: 'text',
    url: 'text',
    platform: 'text',
    posted_at: 'timestamp with time zone',
    data: 'jsonb',
    observed_at: 'timestamp with time zone',
    synced_at: 'timestamp with time zone',
  },
  billing_monthly: {
    partner_location_id: 'text',
    month: 'text',
    videos_published: 'integer',
    completed_visits: 'integer',
    no_shows: 'integer',
    data: 'jsonb',
    synced_at: 'timestamp with time zone',
  },
  stream_records: { id: 'bigint', record: 'text' },
  stream_bookings: {
    reservation_id: 'text',
    store: 'integer',
    status: 'text',
    ack: 'text',
    visit: 'bigint',
    packed: 'text',
  },
  stream_videos: { store: 'integer', video_id: 'text' },
  stream_stores: { store: 'integer', id: 'text', location: 'text', videos: 'text', month: 'text' },
  writer_lease: {
    name: 'text',
    holder: 'text',
    fence: 'bigint',
    expires_at: 'timestamp with time zone',
    holder_pid: 'integer',
    holder_host: 'text',
  },
};

/** A schema name the mirror accepts: a plain lower-case identifier, quoted in every statement. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export const quoted = (schema: string): string => `"${schema}"`;

/**
 * Bring `schema` to `SCHEMA_VERSION` (creating it if missing) and check its tables' columns.
 * Returns the version found before.
 */
export async function migrate(db: Queryable, schema: string, database: string): Promise<number> {
  const s = quoted(schema);
  let found = 0;
  try {
    await db.query('begin');
    // One migrator per schema at a time, whatever the number of processes starting at once.
    await db.query(`select pg_advisory_xact_lock(hashtext($1))`, [`crp-mirror:${schema}`]);
    await db.query(`create schema if not exists ${s}`);
    await db.query(
      `create table if not exists ${s}.crp_schema (only_row boolean primary key default true check (only_row), version integer not null)`,
    );
    const rows = (await db.query<{ version: number }>(`select version from ${s}.crp_schema`)).rows;
    found = rows[0]?.version ?? 0;
    if (found > SCHEMA_VERSION) {
      await db.query('rollback');
      throw schemaError(
        'schema_newer',
        database,
        `schema ${schema} is at version ${found}, newer than this package knows (${SCHEMA_VERSION}); it was left as it is`,
      );
    }
    for (let version = found + 1; version <= SCHEMA_VERSION; version++) {
      for (const statement of MIGRATIONS[version - 1] ?? []) await db.query(statement.replaceAll('%s', s));
    }
    if (rows.length === 0) await db.query(`insert into ${s}.crp_schema (version) values ($1)`, [SCHEMA_VERSION]);
    else if (found < SCHEMA_VERSION) await db.query(`update ${s}.crp_schema set version = $1`, [SCHEMA_VERSION]);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback').catch(() => undefined);
    throw databaseError(error, database, `migrating schema ${schema}`);
  }
  await checkColumns(db, schema, database);
  return found;
}

/** A table whose columns were dropped, renamed or retyped by hand is refused before anything is written. */
async function checkColumns(db: Queryable, schema: string, database: string): Promise<void> {
  let rows: { table_name: string; column_name: string; data_type: string }[];
  try {
    rows = (
      await db.query<{ table_name: string; column_name: string; data_type: string }>(
        'select table_name, column_name, data_type from information_schema.columns where table_schema = $1',
        [schema],
      )
    ).rows;
  } catch (error) {
    throw databaseError(error, database, `reading the columns of schema ${schema}`);
  }
  const have = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.data_type]));
  const wrong: string[] = [];
  for (const [table, columns] of Object.entries(COLUMNS)) {
    for (const [column, type] of Object.entries(columns)) {
      const actual = have.get(`${table}.${column}`);
      if (actual !== type)
        wrong.push(
          actual === undefined
            ? `${schema}.${table}.${column} is missing`
            : `${schema}.${table}.${column} is ${actual}, not ${type}`,
        );
    }
  }
  if (wrong.length > 0)
    throw schemaError(
      'schema_altered',
      database,
      `${wrong.slice(0, 3).join('; ')}${wrong.length > 3 ? ` (and ${wrong.length - 3} more)` : ''}`,
    );
}
