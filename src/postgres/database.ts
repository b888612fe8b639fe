/**
 * The mirror's database: a node-postgres `Pool` (given, or made from a connection string) or an
 * embedded PGlite folder, behind one small interface of sessions that run one statement at a time.
 * Both packages are optional peers, loaded only here and only when used.
 */
import type { Pool, PoolClient } from 'pg';
import { ConfigurationError } from '../index.js';
import { databaseError } from './errors.js';

/** What `onChange(event, tx)` gets: node-postgres's `query(text, params)`. */
export interface Queryable {
  /** Run one statement with `$1`-style parameters; resolves to its rows. */
  query<Row = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: Row[]; rowCount?: number | null }>;
}

/** One connection, used by one task at a time. */
export interface Session extends Queryable {
  /** Returned to its pool (or, for the embedded engine, nothing to do). */
  release(broken?: boolean): void;
}

export interface MirrorDatabase {
  /** `host:port/database`, or `embedded <folder>`: what every error names. Never the password. */
  readonly name: string;
  readonly embedded: boolean;
  session(): Promise<Session>;
  close(): Promise<void>;
}

/** `import()` of a name bundlers cannot see, so a bundle neither inlines nor requires the optional peer. */
function loadAtRunTime<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}

async function loadPeer<T>(name: string, who: string): Promise<T> {
  try {
    return await loadAtRunTime<T>(name);
  } catch (error) {
    throw new ConfigurationError(
      `${who} needs the package ${name}, which is not installed or failed to load: npm install ${name}`,
      { cause: error },
    );
  }
}

/** `host:port/database` of a connection string, without the user or password. */
export function nameOfUrl(url: string): string {
  try {
    const u = new URL(url);
    const db = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
    return `${u.hostname || u.searchParams.get('host') || 'localhost'}:${u.port || '5432'}/${db}`;
  } catch {
    return 'the database of the connection string given (it is not a URL)';
  }
}

function nameOfPool(pool: Pool): string {
  const o =
    (
      pool as unknown as {
        options?: { host?: string; port?: number; database?: string; user?: string; connectionString?: string };
      }
    ).options ?? {};
  if (o.connectionString) return nameOfUrl(o.connectionString);
  const host = o.host ?? process.env.PGHOST ?? 'localhost';
  const port = o.port ?? process.env.PGPORT ?? 5432;
  return `${host}:${port}/${o.database ?? process.env.PGDATABASE ?? o.user ?? 'postgres'}`;
}

/** node-postgres: a pool the mirror owns (from a URL) or the partner's own (never ended by the mirror). */
export async function postgresDatabase(source: { connectionString: string } | { pool: Pool }): Promise<MirrorDatabase> {
  let pool: Pool;
  let owned = false;
  if ('pool' in source) pool = source.pool;
  else {
    const pg = await loadPeer<{ default?: { Pool: typeof Pool }; Pool?: typeof Pool }>('pg', 'syncToPostgres()');
    const PoolClass = pg.Pool ?? pg.default?.Pool;
    if (!PoolClass)
      throw new ConfigurationError('syncToPostgres(): the installed pg has no Pool; install pg 8 (npm install pg).');
    pool = new PoolClass({ connectionString: source.connectionString, max: 4, connectionTimeoutMillis: 10_000 });
    owned = true;
  }
  const name = 'pool' in source ? nameOfPool(pool) : nameOfUrl(source.connectionString);
  // An idle connection the server ended (a restart, pg_terminate_backend) must not crash the process:
  // the next statement on it fails, and that failure is the one told.
  const ignore = () => {};
  if (owned) pool.on('error', ignore);
  return {
    name,
    embedded: false,
    async session() {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw databaseError(error, name, 'connecting');
      }
      // Kept after release too: a connection ended by the server after it went back to the pool must not crash the process.
      if (!client.listeners('error').includes(ignore)) client.on('error', ignore);
      return {
        query: (text, params) => client.query(text, params) as never,
        release: (broken = false) => client.release(broken),
      };
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}

interface PGliteLike {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[]; affectedRows?: number }>;
  close(): Promise<void>;
}

/** PGlite in a folder of its own: one connection, statements in turn. */
export async function embeddedDatabase(dir: string): Promise<MirrorDatabase> {
  const name = `embedded ${dir}`;
  const mod = await loadPeer<{ PGlite: { create(dir: string): Promise<PGliteLike> } }>(
    '@electric-sql/pglite',
    'syncToPostgres() with an embedded database',
  );
  let db: PGliteLike;
  try {
    db = await mod.PGlite.create(dir);
  } catch (error) {
    throw databaseError(error, name, 'opening the folder');
  }
  // One connection: sessions take turns, so a transaction never sees another task's statement.
  let turn: Promise<void> = Promise.resolve();
  return {
    name,
    embedded: true,
    async session() {
      let done!: () => void;
      const previous = turn;
      turn = new Promise((resolve) => (done = resolve));
      await previous;
      let released = false;
      return {
        query: async <Row>(text: string, params?: unknown[]) => {
          const result = await db.query<Row>(text, params);
          return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
        },
        release: () => {
          if (released) return;
          released = true;
          done();
        },
      };
    },
    close: () => db.close(),
  };
}
