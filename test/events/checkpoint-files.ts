/** Scratch checkpoint files for one test file, and a loop that takes the first events of a watcher. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { PartnerEvent } from '../../src/events/index.js';

/** A folder removed after the test file's tests; `fresh()` names a new checkpoint file in it. */
export function checkpointFiles(prefix: string): { dir: string; fresh: () => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return { dir, fresh: () => join(dir, `checkpoint-${++n}.json`) };
}

/** The first `count` events, then leave the loop (the last one taken stays unconfirmed). */
export async function take(iterable: AsyncIterable<PartnerEvent>, count: number): Promise<PartnerEvent[]> {
  const out: PartnerEvent[] = [];
  for await (const e of iterable) {
    out.push(e);
    if (out.length === count) break;
  }
  return out;
}
