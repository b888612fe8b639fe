/**
 * A node-postgres pool whose connections the server cuts (pg_terminate_backend, from another
 * connection) just before the statement numbered `cutAt` of a run is sent: a crash of the sync at
 * that point between two statements, as the server sees it (an open transaction is rolled back).
 */
import pg from 'pg';

export interface CutPool {
  pool: pg.Pool;
  /** Statements sent through the pool so far in this run. */
  readonly statements: number;
  /** Cut before statement `n` of the run (counted from now); undefined: never. */
  cutAt(n: number | undefined): void;
  /** Cut before the first statement of the run whose text matches `pattern`. */
  cutBefore(pattern: RegExp): void;
  readonly cut: boolean;
  end(): Promise<void>;
}

/**
 * A test's own pool. `end()` resolves before its connections have closed: one the server ends
 * meanwhile (a server stopped or killed by the test) must not be an uncaught error.
 */
export function testPool(url: string, max?: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...(max ? { max } : {}) });
  pool.on('error', () => {});
  return pool;
}

export function cutPool(url: string): CutPool {
  const real = testPool(url, 6);
  const admin = testPool(url, 1);
  let statements = 0;
  let at: number | undefined;
  let before: RegExp | undefined;
  let cut = false;
  const pool = {
    options: real.options,
    on: () => pool,
    async connect() {
      const client = await real.connect();
      const query = client.query.bind(client) as (text: string, params?: unknown[]) => Promise<unknown>;
      (client as unknown as { query: typeof query }).query = async (text: string, params?: unknown[]) => {
        statements++;
        if ((at !== undefined && statements === at) || (!cut && before?.test(text))) {
          cut = true;
          await admin.query('select pg_terminate_backend($1)', [
            (client as unknown as { processID: number }).processID,
          ]);
        }
        return query(text, params);
      };
      return client;
    },
  } as unknown as pg.Pool;
  return {
    pool,
    get statements() {
      return statements;
    },
    get cut() {
      return cut;
    },
    cutAt(n) {
      statements = 0;
      cut = false;
      at = n;
      before = undefined;
    },
    cutBefore(pattern) {
      statements = 0;
      cut = false;
      at = undefined;
      before = pattern;
    },
    async end() {
      await real.end();
      await admin.end();
    },
  };
}
