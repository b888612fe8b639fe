/**
 * The structure of src/: features (events, bulk, cli, otel, redis) are built on the client and the
 * client never imports one; a feature with its own entry reaches the client through the package's
 * public entry (`../index.js`, external in the build, so one copy of the error classes exists and
 * `instanceof` holds across entries); no import circle joins the client and a feature.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, readImportGraph, violations, type Exception, type ImportGraph } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The Redis budget plugs into the rate limiter's sharing interface, which is not public API. */
const REDIS_INTERNALS: Exception[] = [
  {
    file: 'redis/index.ts',
    target: 'core/rate-limit/shared.ts',
    why: 'defineSharedBudget builds the SharedBudget the client option takes',
  },
  { file: 'redis/sharing.ts', target: 'core/rate-limit/gate.ts', why: 'the Sharing interface the gate calls (a type)' },
  { file: 'redis/sharing.ts', target: 'core/rate-limit/shared.ts', why: 'SharedBudgetContext (a type)' },
  { file: 'redis/sharing.ts', target: 'core/sanitize.ts', why: 'cleanText for Redis error text in log lines' },
];

/**
 * One feature entry built on another: redisCheckpoint() implements the events entry's Checkpoint.
 * Through that entry's public index only, types only (erased, so the redis build carries no copy of
 * the watcher), and one way: the events entry never imports the redis one.
 */
const FEATURE_ON_FEATURE: Exception[] = [
  { file: 'redis/index.ts', target: 'events/index.ts', why: 'redisCheckpoint() returns a Checkpoint (a type)' },
  {
    file: 'redis/checkpoint.ts',
    target: 'events/index.ts',
    why: 'the Checkpoint interface and its lock options (types)',
  },
];

/**
 * The Postgres mirror runs the events entry's watcher (kept external in the build: dist/events is
 * the one copy) and makes the one budget that the watcher and its billing reads share.
 */
const POSTGRES_ON_EVENTS: Exception[] = [
  { file: 'postgres/sync.ts', target: 'events/index.ts', why: 'watchEvents() runs the stream the mirror applies' },
  { file: 'postgres/checkpoint.ts', target: 'events/index.ts', why: 'the Checkpoint interface it implements (types)' },
  { file: 'postgres/rows.ts', target: 'events/index.ts', why: 'PartnerEvent (a type)' },
  { file: 'postgres/batch.ts', target: 'events/index.ts', why: 'PartnerEvent and the changes it holds (types)' },
  {
    file: 'postgres/checkpoint.ts',
    target: 'events/pass-end.ts',
    why: "the symbol under which the watcher tells the checkpoint a pass ended (Symbol.for, as the shared budget's)",
  },
  {
    file: 'postgres/checkpoint.ts',
    target: 'events/state-tables.ts',
    why: "the symbol under which the checkpoint gives the watcher its state's tables (Symbol.for, as pass-end's)",
  },
  {
    file: 'postgres/stream-bookings.ts',
    target: 'events/bookings.ts',
    why: 'BookingTable, the table it implements, and the entries it holds (types only)',
  },
  {
    file: 'postgres/stream-videos.ts',
    target: 'events/videos.ts',
    why: 'VideoTable, the table it implements (types only)',
  },
  {
    file: 'postgres/stream-stores.ts',
    target: 'events/store-table.ts',
    why: 'StoreTable, the table it implements, and its rows (types only)',
  },
  {
    file: 'postgres/checkpoint.ts',
    target: 'events/store-table.ts',
    why: 'the name the watcher asks for its store table by (a string constant)',
  },
  {
    file: 'postgres/sync.ts',
    target: 'events/call-budget.ts',
    why: 'the sliding-window share of the budget, one for the stream and the billing reads',
  },
  {
    file: 'postgres/sync.ts',
    target: 'events/shared-budget.ts',
    why: "the symbol under which the watcher takes that budget (Symbol.for: the same in the events entry's build)",
  },
];

/**
 * The real clock (`core/clock.ts`): plain functions, no class and no import, so the copy a feature's
 * build carries changes nothing. A feature waits with it where what it waits for is real (a lock's
 * holder, Redis) while the client's clock may be a test's simulated one.
 */
const REAL_TIME: Exception[] = [
  'events/file-checkpoint.ts',
  'events/file-lock-io.ts',
  'redis/checkpoint.ts',
  'redis/sharing.ts',
].map((file) => ({
  file,
  target: 'core/clock.ts',
  why: 'realClock.sleep, to wait on real time',
}));

const graphOf = (edges: Record<string, Record<string, string>>): ImportGraph =>
  new Map(
    Object.entries(edges).map(([file, imports]) => [
      file,
      Object.entries(imports).map(([specifier, target]) => ({ specifier, target })),
    ]),
  );

describe('the import graph of src/', () => {
  const graph = readImportGraph(SRC);

  it('reads the real imports: type-only, re-exports and import() count, TSDoc examples do not', () => {
    const targets = (file: string) => graph.get(file)!.map((e) => e.target);
    expect(targets('events/index.ts')).toEqual(
      expect.arrayContaining(['index.ts', 'events/watcher.ts', 'events/checkpoint.ts']),
    );
    expect(targets('events/types.ts')).toEqual(['index.ts', 'events/checkpoint.ts']);
    expect(targets('client.ts')).toContain('resources/locations.ts');
    expect(graph.size).toBeGreaterThan(100);
  });

  it('has no import of a feature by the client, no feature reaching past ../index.js, no circle between them', () => {
    expect(graph.get('core/clock.ts')).toEqual([]);
    expect(violations(graph, [...REDIS_INTERNALS, ...REAL_TIME, ...FEATURE_ON_FEATURE, ...POSTGRES_ON_EVENTS])).toEqual(
      [],
    );
  });

  it('redis uses the events entry through its index, for types only, and events never uses redis', () => {
    for (const { file } of FEATURE_ON_FEATURE) {
      const text = readFileSync(join(SRC, file), 'utf8');
      const imports = [...text.matchAll(/^(import|export)\b[^;]*?from '(\.\.\/events\/[^']*)'/gms)];
      expect(imports.length, file).toBeGreaterThan(0);
      for (const [statement, , specifier] of imports) {
        expect(specifier).toBe('../events/index.js');
        expect(statement, `${file}: ${statement}`).toMatch(/^(import|export) type\b/);
      }
    }
    for (const [file, edges] of graph) {
      if (file.startsWith('events/'))
        expect(
          edges.filter((e) => e.target.startsWith('redis/') || e.target.startsWith('postgres/')),
          file,
        ).toEqual([]);
    }
  });

  it('every listed exception of the Redis entry is still an import (none outlives its reason)', () => {
    for (const { file, target } of [...REDIS_INTERNALS, ...FEATURE_ON_FEATURE, ...POSTGRES_ON_EVENTS])
      expect(graph.get(file)!.map((e) => e.target)).toContain(target);
  });
});

describe('the rules find what they forbid', () => {
  it('the client importing a feature, even a type', () => {
    const graph = graphOf({ 'client.ts': { './events/index.js': 'events/index.ts' }, 'events/index.ts': {} });
    expect(violations(graph)).toEqual(['client.ts (the client) imports events/index.ts (feature events)']);
  });

  it('a feature importing an internal file instead of ../index.js, or the client file itself', () => {
    const graph = graphOf({
      'bulk/index.ts': {
        '../core/errors.js': 'core/errors.ts',
        '../index.js': 'index.ts',
        './rows.js': 'bulk/rows.ts',
      },
      'bulk/rows.ts': {},
      'events/watcher.ts': { '../client.js': 'client.ts' },
      'index.ts': {},
      'client.ts': {},
      'core/errors.ts': {},
    });
    expect(violations(graph)).toEqual([
      `bulk/index.ts (feature bulk) imports core/errors.ts as "../core/errors.js": a feature uses the public entry only ('../index.js')`,
      `events/watcher.ts (feature events) imports client.ts as "../client.js": a feature uses the public entry only ('../index.js')`,
    ]);
  });

  it('a circle through the client and a feature (the shape the events once had)', () => {
    const graph = graphOf({
      'index.ts': { './client.js': 'client.ts' },
      'client.ts': { './resources/events.js': 'resources/events.ts' },
      'resources/events.ts': { '../events/watcher.js': 'events/watcher.ts' },
      'events/watcher.ts': { '../index.js': 'index.ts' },
    });
    expect(circles(graph)).toEqual([['client.ts', 'events/watcher.ts', 'index.ts', 'resources/events.ts']]);
    expect(violations(graph)).toEqual([
      'resources/events.ts (the client) imports events/watcher.ts (feature events)',
      'import circle between the client and a feature: client.ts → events/watcher.ts → index.ts → resources/events.ts',
    ]);
  });

  it('a circle inside the client alone is not this rule’s business', () => {
    const graph = graphOf({ 'core/a.ts': { './b.js': 'core/b.ts' }, 'core/b.ts': { './a.js': 'core/a.ts' } });
    expect(circles(graph)).toHaveLength(1);
    expect(violations(graph)).toEqual([]);
  });
});
