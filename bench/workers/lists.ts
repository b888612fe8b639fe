/**
 * Case 4, one walk per process (run with --expose-gc): every booking of the account, 200 a page,
 * through a hand-written fetch loop, the same loop written with ky, or the SDK's `for await` (with or without prefetch), with
 * `workMs` of awaited work per page. Reports items, time, RSS growth (peak over the walk) and
 * the heap still in use after a forced GC at the end (what the walk retained).
 */
import ky from 'ky';
import { serveParent } from '../lib/children.js';
import { loadSdk } from '../lib/paths.js';
import { now, sleep } from '../lib/stats.js';

const { PartnerClient } = await loadSdk();
const PAGE = 200;

interface Walk {
  variant: 'hand' | 'ky' | 'sdk' | 'sdk-prefetch' | 'sdk-no-limiter';
  url: string;
  key: string;
  workMs: number;
}

serveParent({
  walk: async (m) => {
    const { variant, url, key, workMs } = m.walk as Walk;
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    const client = new PartnerClient({
      apiKey: key,
      baseUrl: url,
      prefetchPages: variant === 'sdk-prefetch',
      ...(variant === 'sdk-no-limiter' ? { rateLimit: false as const } : {}),
    });
    // The hand loop written with ky, as a partner using ky alone would: an instance with the base
    // URL and key, its retry and timeout off (the SDK's cost over this is ours alone).
    const api = ky.create({
      prefixUrl: `${url}/partner/v1/`,
      headers,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
    });
    // Warm the code paths and the connection, then take the baseline.
    if (variant === 'hand')
      JSON.parse(await (await fetch(`${url}/partner/v1/reservations?limit=1`, { headers })).text());
    else if (variant === 'ky') await api.get('reservations?limit=1').json();
    else await client.reservations.list({ limit: 1 });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const rssBefore = process.memoryUsage.rss();
    const heapBefore = process.memoryUsage().heapUsed;
    let rssPeak = rssBefore;
    let items = 0;
    let pages = 0;
    let checksum = 0;
    const onPage = async () => {
      pages++;
      const rss = process.memoryUsage.rss();
      if (rss > rssPeak) rssPeak = rss;
      if (workMs > 0) await sleep(workMs);
    };
    const started = now();
    const cpuBefore = process.cpuUsage();
    if (variant === 'hand') {
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await fetch(`${url}/partner/v1/reservations?limit=${PAGE}${query}`, { headers });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const page = JSON.parse(await response.text()) as {
          items: Array<{ reservation_id: string }>;
          next_cursor?: string | null;
        };
        for (const booking of page.items) {
          items++;
          checksum += booking.reservation_id.length;
        }
        cursor = page.next_cursor ? page.next_cursor : null;
        await onPage();
      } while (cursor !== null);
    } else if (variant === 'ky') {
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await api.get(`reservations?limit=${PAGE}${query}`);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const page = (await response.json()) as {
          items: Array<{ reservation_id: string }>;
          next_cursor?: string | null;
        };
        for (const booking of page.items) {
          items++;
          checksum += booking.reservation_id.length;
        }
        cursor = page.next_cursor ? page.next_cursor : null;
        await onPage();
      } while (cursor !== null);
    } else {
      for await (const booking of client.reservations.list({ limit: PAGE })) {
        items++;
        checksum += booking.reservation_id.length;
        if (items % PAGE === 0) await onPage();
      }
      if (items % PAGE !== 0) await onPage();
    }
    const elapsedMs = now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    // The client's own CPU for the walk (the sandbox runs elsewhere): what a loaded machine moves least.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const rssAfter = process.memoryUsage.rss();
    gc?.();
    // What the walk left behind once garbage is collected (flat memory: about nothing).
    const retained = process.memoryUsage().heapUsed - heapBefore;
    await client.close();
    return {
      variant,
      workMs,
      items,
      pages,
      elapsedMs,
      cpuMs,
      itemsPerSecond: items / (elapsedMs / 1000),
      rssBefore,
      rssPeak,
      rssAfter,
      growth: rssPeak - rssBefore,
      retained,
      checksum,
    };
  },
});
