/**
 * `crp` run inside the test's process: `main()` with a captured Io (stdout and stderr collected and
 * not a terminal, the folder and environment given, Ctrl-C sent by the test), against a sandbox
 * on a loopback port. processes.ts runs the bundled command as a child, for the few tests where a
 * process is the point: exit codes, signals, a terminal, the bin itself.
 */
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { Io } from '../../src/cli/command.js';
import { main } from '../../src/cli/main.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { ROOT, type Finished } from './processes.js';

export { ROOT, type Finished };

/** A command started in process. */
export interface RunningCrp {
  /** Its exit code and all it wrote, once `main` resolves (or the command exits at once on a second Ctrl-C). */
  finished: Promise<Finished>;
  /** What it has written to stdout so far. */
  stdout(): string;
  /** Ctrl-C (`SIGINT`) or `SIGTERM`, as the process would receive it. */
  signal(name: NodeJS.Signals): void;
}

/** Start `crp …` in process, reading relative paths against `cwd`. */
export function startCrp(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): RunningCrp {
  const stdout = captured();
  const stderr = captured();
  const signals = new EventEmitter();
  let exited: (code: number) => void = () => undefined;
  const exit = new Promise<number>((done) => (exited = done));
  const io: Io = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    cwd,
    onSignal(handler) {
      signals.on('signal', handler);
      return () => signals.off('signal', handler);
    },
    exit: (code) => exited(code),
  };
  const finished = Promise.race([main(args, io), exit]).then((code) => ({
    code,
    stdout: stdout.text(),
    stderr: stderr.text(),
  }));
  return { finished, stdout: stdout.text, signal: (name) => signals.emit('signal', name) };
}

/** Run `crp …` in process to its end. */
export function crp(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Finished> {
  return startCrp(args, env, cwd).finished;
}

/** A stream that keeps what is written to it; not a terminal, as a pipe would not be. */
function captured(): { stream: NodeJS.WriteStream; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream: Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream, text: () => text };
}

export interface ServedSandbox {
  url: string;
  key: string;
  /** Environment for `crp`: the sandbox's URL and key, nothing from the test's own environment. */
  env: NodeJS.ProcessEnv;
  sandbox: Sandbox;
  stop(): Promise<void>;
}

/** A sandbox in this process, served on a free loopback port, with one key issued (seed 14, as crp-sandbox in processes.ts). */
export async function serveSandbox(options: SandboxOptions = {}): Promise<ServedSandbox> {
  const sandbox = createSandbox({ seed: 14, ...options });
  const key = sandbox.issueKey();
  const server = await sandbox.listen(0);
  return {
    url: server.url,
    key,
    env: { PARTNER_API_BASE_URL: server.url, PARTNER_API_KEY: key },
    sandbox,
    stop: () => server.close(),
  };
}

/** Resolves once `condition()` holds, checking every 20 ms; fails after `ms` with `problem()`. */
export async function until(condition: () => boolean, ms: number, problem: () => string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(problem());
    await new Promise((r) => setTimeout(r, 20));
  }
}
