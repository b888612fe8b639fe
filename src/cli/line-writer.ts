/** Text out to a file or stdout, waiting when the stream is full so that memory stays flat. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';

export interface LineWriter {
  /** Resolves once the stream can take more. */
  write(text: string): Promise<void>;
  /** Flush and close a file (stdout is left open). */
  close(): Promise<void>;
}

/** A writer for `path` (read against `cwd`), or for `stdout` when `path` is undefined or `-`. */
export function lineWriter(path: string | undefined, stdout: NodeJS.WritableStream, cwd: string): LineWriter {
  const toStdout = path === undefined || path === '-';
  return streamWriter(toStdout ? stdout : createWriteStream(resolve(cwd, path)), !toStdout);
}

/** A writer for `stream`; `owned`: close() ends it (a file), else leaves it open (stdout). */
export function streamWriter(stream: NodeJS.WritableStream, owned: boolean): LineWriter {
  let failed: Error | undefined;
  stream.on('error', (error: Error) => {
    failed = error;
  });
  return {
    async write(text) {
      if (failed) throw failed;
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), once(stream, 'error')]);
      if (failed) throw failed;
    },
    async close() {
      if (failed) throw failed;
      if (!owned) return;
      stream.end();
      await once(stream, 'finish');
    },
  };
}
