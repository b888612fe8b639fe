/**
 * A checkpoint line nested thousands deep (a damaged store, or another program's data) is refused
 * as CheckpointInvalidError naming the line, like any other line that is not a checkpoint's, and
 * never as the RangeError of a recursive walk over it.
 */
import { describe, expect, it } from 'vitest';
import { CheckpointInvalidError } from '../../src/index.js';
import { readLine } from '../../src/events/checkpoint-format.js';
import { MAX_DEPTH, parseShallow } from '../../src/events/shallow-json.js';
import { memoryCheckpoint, watchEvents } from '../../src/events/index.js';
import { useSimEnv } from './support.js';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('a checkpoint line nested deep', () => {
  it.each([
    ['an array 5,000 deep', deep(5_000)],
    ['a journal line whose record is 5,000 deep', `[${deep(5_000)}]`],
    ['an object 100,000 deep', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
    ['a snapshot with a field 5,000 deep', `{"format":"crp-events/1","month":${deep(5_000)}}`],
  ])('%s is refused as CheckpointInvalidError naming the line', (_, line) => {
    for (const index of [0, 3]) {
      const error = (() => {
        try {
          readLine(line, index);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(CheckpointInvalidError);
      expect((error as Error).message).toContain(`line ${index + 1} is not JSON of at most ${MAX_DEPTH} levels`);
    }
  });

  it('counts only brackets outside strings, and parses what the SDK writes', () => {
    const text = JSON.stringify({ s: '['.repeat(1_000), t: '\\"[[[', a: [[[1]]] });
    expect(parseShallow(text)).toEqual(JSON.parse(text));
    expect(() => parseShallow(deep(MAX_DEPTH))).not.toThrow();
    expect(() => parseShallow(deep(MAX_DEPTH + 1))).toThrow(SyntaxError);
  });

  const startSimEnv = useSimEnv();
  it('a watcher on such a checkpoint ends with CheckpointInvalidError, having saved nothing', async () => {
    const env = await startSimEnv('msw');
    const checkpoint = memoryCheckpoint();
    await checkpoint.save(`[${deep(5_000)}]`);
    const watcher = watchEvents(env.client(), { checkpoint });
    await expect(
      (async () => {
        for await (const _event of watcher) throw new Error('delivered from a damaged checkpoint');
      })(),
    ).rejects.toBeInstanceOf(CheckpointInvalidError);
    expect(await checkpoint.load()).toEqual([`[${deep(5_000)}]`]);
  });
});
