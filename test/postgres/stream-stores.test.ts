/**
 * The stream's stores table (`StreamStores`) on a real server: rows come back in store order, a
 * page of 10,000 a query, ending on a short page or an empty one; what is held replaces a store's
 * row; a clear empties the table before what is held after it; a column the table does not have is
 * refused; a table gone is one `MirrorDatabaseError` naming the database.
 */
import { describe, expect, it } from 'vitest';
import type { StoreRow } from '../../src/events/store-table.js';
import { MirrorDatabaseError } from '../../src/postgres/index.js';
import { StreamStores } from '../../src/postgres/stream-stores.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { migratedDatabase, usePools } from './support.js';

const row = (store: number, over: Partial<StoreRow> = {}): StoreRow => ({
  store,
  id: `loc-${store}`,
  values: { location: `a|${store.toString(16).padStart(16, '0')}`, videos: store % 2 === 0 ? '1|1|0' : null },
  month: '2026-11',
  ...over,
});

describe('StreamStores: the stream’s stores in their table', () => {
  const server = usePostgresServer();
  const poolOf = usePools();

  async function table() {
    const { db, statements, pool } = await migratedDatabase(server(), poolOf);
    return { stores: new StreamStores(db, '"crp"', 'test'), db, statements, pool };
  }

  async function pages(stores: StreamStores): Promise<StoreRow[][]> {
    const out: StoreRow[][] = [];
    for await (const page of stores.rows()) out.push([...page]);
    return out;
  }

  it.each([
    [25_001, [10_000, 10_000, 5_001], 3],
    [10_000, [10_000], 2],
    [0, [], 1],
  ])('reads %i rows in store order as pages of %j, in %i queries', async (count, sizes, queries) => {
    const { stores, db, statements } = await table();
    // Held in reverse: the table's order is the store number's, not the order written.
    for (let store = count - 1; store >= 0; store--) stores.hold(row(store));
    await stores.write(db);
    statements.length = 0;
    const read = await pages(stores);
    expect(read.map((page) => page.length)).toEqual(sizes);
    expect(statements).toHaveLength(queries);
    const all = read.flat();
    expect(all.map((r) => r.store)).toEqual(Array.from({ length: count }, (_, i) => i));
    if (count > 0) expect(all[count - 1]).toEqual(row(count - 1));
  });

  it('a held row replaces the store’s row, with every column; pending counts what the next commit writes', async () => {
    const { stores, db } = await table();
    expect(stores.pending).toBe(0);
    stores.hold(row(0));
    stores.hold(row(1));
    stores.hold(row(1, { values: { location: null, videos: '2|0|2' } }));
    expect(stores.pending).toBe(2);
    await stores.write(db);
    expect(stores.pending).toBe(0);
    stores.hold(row(0, { id: 'renamed', values: { location: 't|00000000000000ff', videos: null }, month: '2026-12' }));
    await stores.write(db);
    expect((await pages(stores)).flat()).toEqual([
      { store: 0, id: 'renamed', values: { location: 't|00000000000000ff', videos: null }, month: '2026-12' },
      row(1, { values: { location: null, videos: '2|0|2' } }),
    ]);
  });

  it('a clear empties the table with the next commit, before the rows held after it', async () => {
    const { stores, db } = await table();
    for (let store = 0; store < 3; store++) stores.hold(row(store));
    await stores.write(db);
    stores.hold(row(5));
    stores.clear();
    expect(stores.pending).toBe(1);
    stores.hold(row(0, { id: 'after' }));
    expect(stores.pending).toBe(2);
    await stores.write(db);
    expect((await pages(stores)).flat()).toEqual([row(0, { id: 'after' })]);
    // Taken by that commit: the next writes nothing more.
    stores.hold(row(1));
    await stores.write(db);
    expect((await pages(stores)).flat().map((r) => r.id)).toEqual(['after', 'loc-1']);
  });

  it('refuses a column the table does not have', async () => {
    const { stores } = await table();
    expect(() => stores.hold(row(0, { values: { location: null, hours: 'x', seats: 'y' } }))).toThrow(
      "The stream's store table has no column hours, seats.",
    );
    expect(stores.pending).toBe(0);
  });

  it('a table gone: one MirrorDatabaseError naming the database', async () => {
    const { stores, pool } = await table();
    await pool.query('drop table crp.stream_stores');
    const error = await pages(stores).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MirrorDatabaseError);
    expect((error as Error).message).toContain('test');
    expect((error as Error).message).toMatch(/reading the stream checkpoint/);
  });
});
