/**
 * A full disk in the middle of adding a line: the write fails after part of the line reached the
 * file. The watcher sees the error; the next line this same checkpoint adds goes after the last
 * whole line, never after the fragment.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** Set to make the next append write half its data, then fail as a full disk does. */
const disk = { full: false };

vi.mock('../../src/events/node-modules.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/events/node-modules.js')>();
  const fs = await original.nodeFs();
  const writeFile: typeof fs.writeFile = async (file, data, options) => {
    if (disk.full && typeof options === 'object' && options?.flag === 'a' && typeof data === 'string') {
      disk.full = false;
      await fs.writeFile(file, data.slice(0, Math.floor(data.length / 2)), options);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    return fs.writeFile(file, data, options);
  };
  return { ...original, nodeFs: async () => ({ ...fs, writeFile }) };
});

const { fileCheckpoint } = await import('../../src/events/index.js');

const dir = mkdtempSync(join(tmpdir(), 'crp-full-disk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a full disk while a line is added', () => {
  it('leaves a torn line that the next line added by the same checkpoint cuts off first', async () => {
    const path = join(dir, 'checkpoint.json');
    const checkpoint = fileCheckpoint(path);
    await checkpoint.save('{"a":1}', { replace: true });
    await checkpoint.save('["x"]');
    disk.full = true;
    await expect(checkpoint.save('["y","a longer record"]')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n["x"]\n["y","a long');
    await checkpoint.save('["z"]');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n["x"]\n["z"]\n');
  });
});
