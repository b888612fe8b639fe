/**
 * What the event stream does not carry: monthly billing rows, read through the public client in
 * the one budget the sync shares with the stream, between the stream's passes. Every month from
 * the oldest booking on at the first step of a process (closed months already mirrored are
 * skipped), then this month and the last every `billingEveryMs`. Store records are the stream's
 * store family (`location.updated`).
 */
import type { BillingRow, PartnerClient } from '../index.js';
import type { Queryable } from './database.js';
import { upsertBilling } from './rows.js';

const PAGE = 200;

/** The budget the sync's stream and these reads take their calls from. */
export interface Budget {
  take(signal: AbortSignal): Promise<void>;
}

export interface RefresherOptions {
  client: PartnerClient;
  schemaQuoted: string;
  budget: Budget;
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
  readonly #o: RefresherOptions;
  #billedAt: number | undefined;

  constructor(options: RefresherOptions) {
    this.#o = options;
  }

  async #call<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    await this.#o.budget.take(signal);
    this.#o.onCall();
    return call();
  }

  /** Billing when due (or `full`). */
  async step(signal: AbortSignal, full = false): Promise<void> {
    const now = this.#o.client.clock.monotonic();
    if (full || this.#billedAt === undefined || now - this.#billedAt >= this.#o.billingEveryMs) {
      await this.#billing(signal, this.#billedAt === undefined);
      this.#billedAt = now;
    }
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
    for (const month of months) {
      let cursor: string | undefined;
      const seen = new Set<string>();
      do {
        const page = await this.#call(signal, () =>
          client.reports.billingMonthly(month, { limit: PAGE, ...(cursor ? { cursor } : {}) }, { signal }),
        );
        const rows: BillingRow[] = page.items;
        await this.#o.write((tx) => upsertBilling(tx, s, month, rows));
        cursor = page.nextCursor ?? undefined;
        if (cursor !== undefined && seen.has(cursor)) break;
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
    }
  }
}
