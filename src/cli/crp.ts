#!/usr/bin/env node
/** The `crp` bin: runs main.ts with the process's own streams, environment, folder and signals. */
import { EXIT, processIo } from './command.js';
import { main } from './main.js';

// Set the exit code and let the process end by itself, so that stdout and the reports are flushed.
main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `crp: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = EXIT.couldNotRun;
  },
);
