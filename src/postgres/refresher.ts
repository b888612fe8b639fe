/**
 * What the event stream does not carry: store records and monthly billing rows, read through the
 * public client within the sync's own slice of the budget, between the stream's transactions.
 * - A store is read when first seen (in billing's rows or an event), at the next poll after its
 *   bookings or videos moved, and again at the `storeRefreshMs` cadence (the longest-unread first).
 * - Billing: every month from the oldest booking on at the first step of a process (closed months
 *   already mirrored are skipped), then this month and the last every `billingEveryMs`.
 */
import { NotFoundError, type BillingRow, type Location, type PartnerClient } from '../index.js';
import { CallBudget } from '../events/call-budget.js';
import type { Queryable } from './database.js';
import { upsertBilling, upsertStores } from './rows.js';

const PAGE = 200;
const BATCH = 200;

export interface RefresherOptions {
  client: PartnerClient;
  schemaQuoted: string;
  budgetShare: number;
  storeRefreshMs: number;
  billingEveryMs: number;
  /** Run `work` in one fenced transaction and commit it. */
  write(work: (tx: Queryable) => Promise<void>): Promise<void>;
  /** A read outside any transaction. */
  read: Queryable;
  onCall(): void;
}

const monthOf = (iso: string) => iso.slice(0, 7);
function monthsFrom(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push(month);
    if (month >= last) break;
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

export class Refresher {
  /** Stores to read at the next step: new, or whose bookings or videos moved. */
  readonly dirty = new Set<string>();
  readonly #o: RefresherOptions;
  readonly #budget: CallBudget;
  #billedAt: number | undefined;
  #storesAt: number | undefined;
  /** Fraction of a store carried from one step to the next by the cadence. */
  #carry = 0;
  storeReads = 0;

  constructor(options: RefresherOptions) {
    this.#o = options;
    this.#budget = new CallBudget(options.client.clock, options.budgetShare, () => options.client.rateLimit);
  }

  async #call<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    await this.#budget.take(signal);
    this.#o.onCall();
    return call();
  }

  /** One round: billing when due (or `full`), then the stores marked and those due by the cadence. */
  async step(signal: AbortSignal, full = false): Promise<void> {
    const now = this.#o.client.clock.monotonic();
    if (full || this.#billedAt === undefined || now - this.#billedAt >= this.#o.billingEveryMs) {
      await this.#billing(signal, this.#billedAt === undefined);
      this.#billedAt = now;
    }
    const due = await this.#dueByCadence(now);
    const ids = [...new Set([...this.dirty, ...due])];
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const stores: Location[] = [];
      for (const id of batch) {
        try {
          stores.push(await this.#call(signal, () => this.#o.client.locations.get(id, { signal })));
          this.storeReads++;
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      await this.#o.write((tx) => upsertStores(tx, this.#o.schemaQuoted, stores));
      for (const id of batch) this.dirty.delete(id);
    }
  }

  /** The longest-unread stores, as many as the cadence owes since the last step. */
  async #dueByCadence(now: number): Promise<string[]> {
    const last = this.#storesAt;
    this.#storesAt = now;
    if (last === undefined) return [];
    const s = this.#o.schemaQuoted;
    const count = Number(
      (await this.#o.read.query<{ n: string }>(`select count(*)::text as n from ${s}.stores`)).rows[0]?.n ?? 0,
    );
    const owed = (count * (now - last)) / this.#o.storeRefreshMs + this.#carry;
    const n = Math.min(count, Math.floor(owed));
    this.#carry = owed - n;
    if (n === 0) return [];
    return (
      await this.#o.read.query<{ id: string }>(
        `select partner_location_id as id from ${s}.stores order by synced_at limit $1`,
        [n],
      )
    ).rows.map((r) => r.id);
  }

  async #billing(signal: AbortSignal, firstInProcess: boolean): Promise<void> {
    const { client, schemaQuoted: s, read } = this.#o;
    const summary = await this.#call(signal, () => client.reports.summary({ signal }));
    const current = monthOf(summary.generated_at);
    const d = new Date(`${current}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 1);
    const previous = d.toISOString().slice(0, 7);
    let months = [previous, current];
    if (firstInProcess) {
      const oldest = (
        await read.query<{ m: string | null }>(
          `select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM') as m from ${s}.bookings`,
        )
      ).rows[0]?.m;
      const have = new Set(
        (await read.query<{ month: string }>(`select distinct month from ${s}.billing_monthly`)).rows.map(
          (r) => r.month,
        ),
      );
      months = monthsFrom(oldest && oldest < previous ? oldest : previous, current).filter(
        (m) => m >= previous || !have.has(m),
      );
    }
    const known = new Set(
      (await read.query<{ id: string }>(`select partner_location_id as id from ${s}.stores`)).rows.map((r) => r.id),
    );
    for (const month of months) {
      let cursor: string | undefined;
      const seen = new Set<string>();
      do {
        const page = await this.#call(signal, () =>
          client.reports.billingMonthly(month, { limit: PAGE, ...(cursor ? { cursor } : {}) }, { signal }),
        );
        const rows: BillingRow[] = page.items;
        await this.#o.write((tx) => upsertBilling(tx, s, month, rows));
        for (const row of rows) if (!known.has(row.partner_location_id)) this.dirty.add(row.partner_location_id);
        cursor = page.nextCursor ?? undefined;
        if (cursor !== undefined && seen.has(cursor)) break;
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
    }
  }
}
