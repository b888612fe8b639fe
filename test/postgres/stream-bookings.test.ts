/**
 * The stream's bookings table (`StreamBookings`) on a real server: which stores a poll reads again
 * (those of pending bookings gone from the service's list, those of confirmed bookings whose visit
 * is due) come from one query that answers with stores, each once, whatever the number of
 * bookings; what is held for the next commit is newer than its row; the ids left out are left out
 * however many there are.
 */
import { describe, expect, it } from 'vitest';
import type { BookingEntry } from '../../src/events/bookings.js';
import { StreamBookings } from '../../src/postgres/stream-bookings.js';
import { usePostgresServer } from '../helpers/postgres-server.js';
import { migratedDatabase, usePools } from './support.js';

const entry = (store: number, status: string, visit: number | null = null): BookingEntry =>
  ({ store, status, ack: null, visit }) as BookingEntry;

describe('StreamBookings.stores(): the stores a poll reads again, from the table', () => {
  const server = usePostgresServer();
  const poolOf = usePools();

  async function table() {
    const { db, statements, pool } = await migratedDatabase(server(), poolOf);
    return { bookings: new StreamBookings(db, '"crp"', 'test'), db, statements, pool };
  }

  it('answers with each store once, however many of its bookings match, in one statement', async () => {
    const { bookings, db, statements } = await table();
    // 3 stores, 400 pending bookings each, and confirmed ones with visits at minutes 10 and 20.
    for (let i = 0; i < 1_200; i++) bookings.hold(`p${i}`, `packed${i}`, entry(i % 3, 'pending'));
    bookings.hold('c1', 'c1', entry(7, 'confirmed', 10));
    bookings.hold('c2', 'c2', entry(8, 'confirmed', 20));
    // Ids sort before any letter of the others ('0…', 'A…', ' …'): the first chunk starts below every id.
    bookings.hold(' 1', ' 1', entry(4, 'pending'));
    bookings.hold('0', '0', entry(5, 'pending'));
    bookings.hold('A', 'A', entry(6, 'pending'));
    await bookings.write(db);
    statements.length = 0;
    expect((await bookings.stores('pending', { except: new Set() })).sort()).toEqual([0, 1, 2, 4, 5, 6]);
    expect(statements).toHaveLength(1);
    expect(await bookings.stores('confirmed', { visitBy: 15, except: new Set() })).toEqual([7]);
    expect((await bookings.stores('confirmed', { visitBy: 20, except: new Set() })).sort()).toEqual([7, 8]);
    expect((await bookings.stores('confirmed', { except: new Set() })).sort()).toEqual([7, 8]);
    // Store 1's bookings are all listed by the service (left out): its store is not read again.
    const listed = Array.from({ length: 1_200 }, (_, i) => `p${i}`).filter((id) => Number(id.slice(1)) % 3 === 1);
    expect((await bookings.stores('pending', { except: new Set([...listed, ' 1', '0', 'A']) })).sort()).toEqual([0, 2]);
    expect(await bookings.stores('confirmed', { visitBy: 20, except: new Set(['c2']) })).toEqual([7]);
  });

  it('a booking held for the next commit is newer than its row: its held state decides', async () => {
    const { bookings, db } = await table();
    bookings.hold('a', 'a', entry(1, 'pending'));
    bookings.hold('b', 'b', entry(2, 'confirmed', 5));
    await bookings.write(db);
    // Held, not written: a is confirmed now (visit at 3), b completed.
    bookings.hold('a', 'a2', entry(1, 'confirmed', 3));
    bookings.hold('b', 'b2', entry(2, 'completed'));
    // Confirmed with no visit yet: never due, but confirmed.
    bookings.hold('n', 'n', entry(9, 'confirmed'));
    expect((await bookings.stores('confirmed', { except: new Set() })).sort()).toEqual([1, 9]);
    expect(await bookings.stores('pending', { except: new Set() })).toEqual([]);
    expect(await bookings.stores('confirmed', { visitBy: 10, except: new Set() })).toEqual([1]);
    expect(await bookings.stores('confirmed', { visitBy: 2, except: new Set() })).toEqual([]);
    expect(await bookings.stores('confirmed', { visitBy: 3, except: new Set() })).toEqual([1]);
    expect(await bookings.stores('confirmed', { visitBy: 10, except: new Set(['a']) })).toEqual([]);
    // Cleared: the rows no longer count, what is held after does.
    bookings.clear();
    bookings.hold('c', 'c', entry(3, 'pending'));
    expect(await bookings.stores('pending', { except: new Set() })).toEqual([3]);
    expect(await bookings.stores('confirmed', { except: new Set() })).toEqual([]);
  });

  it('100,000 ids left out are asked, not sent: the rows come in chunks, in key order, each row once', async () => {
    const { bookings, pool, statements } = await table();
    await pool.query(
      `insert into crp.stream_bookings (reservation_id, store, status, packed)
       select 'r' || i, i % 1000, 'pending', 'x' from generate_series(1, 100000) as i`,
    );
    const except = new Set(Array.from({ length: 99_990 }, (_, i) => `r${i + 1}`));
    const asked: string[] = [];
    const stores = await bookings.stores('pending', { except: { has: (id) => (asked.push(id), except.has(id)) } });
    // r99991..r100000: stores 991..999 and 0.
    expect(stores.sort((a, b) => a - b)).toEqual([0, 991, 992, 993, 994, 995, 996, 997, 998, 999]);
    expect(asked).toHaveLength(100_000);
    // 5,000 rows a query: 20 full chunks, then one that finds the end.
    expect(statements).toHaveLength(21);
    expect(new Set(asked).size).toBe(100_000);
  });
});
