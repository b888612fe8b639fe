/**
 * Where the examples write their files when you name none: `examples/output/` (git-ignored), never
 * the directory you ran them from, so a run leaves the repository clean.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OUTPUT_DIR = fileURLToPath(new URL('../output/', import.meta.url));

/** `examples/output/<name>`, creating the folder. */
export function outputPath(name: string): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return `${OUTPUT_DIR}${name}`;
}
