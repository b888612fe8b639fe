/** Checkpoint lines in tests: a memory checkpoint that holds them, and the refusal of one that is not a line. */
import { expect } from 'vitest';
import { CheckpointInvalidError, memoryCheckpoint, type Checkpoint } from '../../src/events/index.js';
import { readLine } from '../../src/events/checkpoint-format.js';

/** A memory checkpoint holding `lines` (the first as a snapshot would be written, replacing). */
export async function checkpointOf(lines: string[]): Promise<Checkpoint> {
  const checkpoint = memoryCheckpoint();
  await checkpoint.save(lines[0] as string, { replace: true });
  for (const line of lines.slice(1)) await checkpoint.save(line);
  return checkpoint;
}

/** The message `readLine` refuses `line` with (a `CheckpointInvalidError`); fails when it takes it. */
export function refusal(line: string, index = 0): string {
  try {
    readLine(line, index);
  } catch (error) {
    expect(error, line).toBeInstanceOf(CheckpointInvalidError);
    return (error as Error).message;
  }
  throw new Error(`not refused: ${line}`);
}
