/**
 * A checkpoint with a store table and a table of video ids, in memory, for the store table's tests:
 * what is held is written with the next save (as the Postgres checkpoint writes it with the next
 * commit), and `crash()` loses what is held and not saved.
 */
import { memoryCheckpoint, type Checkpoint } from '../../src/events/index.js';
import { STATE_TABLES } from '../../src/events/state-tables.js';
import { STORE_TABLE, type StoreRow, type StoreTable } from '../../src/events/store-table.js';
import type { VideoTable } from '../../src/events/videos.js';

/** `pageRows`: rows a page of `rows()` holds; `lines`, `rows`: what it holds at first. */
export function storeTableCheckpoint(options: { pageRows?: number; lines?: string[]; rows?: StoreRow[] } = {}) {
  const inner = memoryCheckpoint();
  const rows = new Map<number, StoreRow>((options.rows ?? []).map((row) => [row.store, row]));
  let held = new Map<number, StoreRow>();
  let clearing = false;
  const pages: number[] = [];
  /** The store of each row held, in order. */
  const holds: number[] = [];
  const table: StoreTable = {
    async *rows() {
      const all = [...rows.values()].sort((a, b) => a.store - b.store);
      const size = options.pageRows ?? 1000;
      for (let i = 0; i < all.length; i += size) {
        pages.push(Math.min(size, all.length - i));
        yield all.slice(i, i + size);
      }
    },
    hold: (row) => {
      holds.push(row.store);
      held.set(row.store, structuredClone(row));
    },
    clear: () => {
      held = new Map();
      clearing = true;
    },
  };
  const videoIds = new Set<string>();
  const videos: VideoTable = {
    read: async (store) =>
      [...videoIds].filter((k) => k.startsWith(`${store}:`)).map((k) => k.slice(k.indexOf(':') + 1)),
    hold: (store, ids) => {
      for (const id of ids) videoIds.add(`${store}:${id}`);
    },
    clear: () => videoIds.clear(),
  };
  const checkpoint: Checkpoint & { [STATE_TABLES]: () => unknown } = {
    load: inner.load,
    save: async (line, saveOptions) => {
      if (clearing) rows.clear();
      for (const [store, row] of held) rows.set(store, row);
      held = new Map();
      clearing = false;
      // As the Postgres checkpoint: a line whose records all went to tables holds nothing to replay.
      if (line !== '[]') await inner.save(line, saveOptions);
    },
    [STATE_TABLES]: () => ({
      table: (name: string) => (name === STORE_TABLE ? table : name === 'videos' ? videos : undefined),
    }),
  };
  const ready = (async () => {
    for (const line of options.lines ?? []) await inner.save(line);
  })();
  const crash = () => {
    held = new Map();
    clearing = false;
  };
  return { checkpoint, rows, pages, holds, ready, crash, lines: () => inner.load() };
}
