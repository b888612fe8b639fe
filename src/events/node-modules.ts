/**
 * Node's file and OS modules, loaded on first use: the main entry also runs where there is no file
 * system (edge runtimes, bundled for a browser), and only `fileCheckpoint` needs them. The specifier
 * is a variable so bundlers for those platforms do not try to resolve it.
 */
type Fs = typeof import('node:fs/promises');
type Os = typeof import('node:os');

const load = <T>(name: string): Promise<T> => import(/* @vite-ignore */ name) as Promise<T>;

let fs: Promise<Fs> | undefined;
let os: Promise<Os> | undefined;

export const nodeFs = (): Promise<Fs> => (fs ??= load<Fs>('node:fs/promises'));
export const nodeOs = (): Promise<Os> => (os ??= load<Os>('node:os'));

/** This process's id, or undefined outside Node-like runtimes. */
export function currentPid(): number | undefined {
  return (globalThis as { process?: { pid?: number } }).process?.pid;
}

/** True when a process with this id exists on this machine (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  const proc = (globalThis as { process?: { kill(pid: number, signal: number): void } }).process;
  if (!proc) return true;
  try {
    proc.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
