/**
 * The files of one `crp enroll` run, settled before anything is sent: each report is a file of its
 * own (not the stores file, not the `--resume` report, not another report, whatever links lead to
 * it) and can be written. A report opened for writing empties its file, so this is the last step
 * before the first call, and a refusal leaves no file behind that was not there before.
 */
import { lstat, open, readlink, realpath, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { SetupError, fileProblem } from './command.js';

/**
 * What makes two paths one file: device and inode when it exists, else the real folder and the name
 * it would be created under. `path` as the command line gave it, read against `cwd`.
 */
async function identity(path: string, cwd: string, hops = 0): Promise<string> {
  const at = resolve(cwd, path);
  try {
    const { dev, ino } = await stat(at);
    return `inode ${dev}:${ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileProblem(error, cwd, path) ?? error;
  }
  // A link to a file not there yet: writing through it creates its target.
  const link = await lstat(at).catch(() => undefined);
  if (link?.isSymbolicLink() && hops < 40) return identity(resolve(dirname(at), await readlink(at)), cwd, hops + 1);
  let folder: string;
  try {
    folder = await realpath(dirname(at));
  } catch (error) {
    throw new SetupError(
      `cannot write ${path}: its folder ${dirname(at)} does not exist (or is not a folder). Create it or name another folder; nothing was sent.`,
      { cause: error },
    );
  }
  return `path ${resolve(folder, basename(path))}`;
}

/** The paths of a run, as the command line gave them, and the folder they are read against. */
export interface RunFiles {
  cwd: string;
  stores: string;
  resume: string | undefined;
  reports: readonly string[];
}

/**
 * Refuses a report that is the stores file (it would be emptied before it is read), the `--resume`
 * report (the same), or another report (two writers would garble it), by what the paths lead to.
 */
export async function refuseSharedFiles({ cwd, stores, resume, reports }: RunFiles): Promise<void> {
  const input = new Map<string, string>([[await identity(stores, cwd), `the stores file ${stores}`]]);
  if (resume !== undefined) {
    const key = await identity(resume, cwd);
    if (input.has(key))
      throw new SetupError(
        `--resume ${resume} is the stores file ${stores}: give the .jsonl report of an earlier run.`,
      );
    input.set(key, `--resume ${resume}`);
  }
  const seen = new Set<string>();
  for (const path of reports) {
    const key = await identity(path, cwd);
    const same = input.get(key);
    if (same?.startsWith('--resume'))
      throw new SetupError(
        `${same} and --report ${path} are the same file: the report would be emptied before it is read. Write the new report to another file.`,
      );
    if (same)
      throw new SetupError(
        `--report ${path} is ${same}: the report would empty it before it is read. Write the report to another file.`,
      );
    if (seen.has(key)) throw new SetupError(`--report ${path} is given twice: give each report its own file.`);
    seen.add(key);
  }
}

/** A report file open for writing, emptied. */
export interface OpenFile {
  path: string;
  handle: FileHandle;
}

/**
 * Opens every report, or none: a file that is there is opened without emptying it until all are
 * open, a new one is created; if one cannot be opened, those created are removed and the others
 * left as they were.
 */
export async function openAll(paths: readonly string[], cwd: string): Promise<OpenFile[]> {
  const opened: Array<OpenFile & { created: string | undefined }> = [];
  let path: string | undefined;
  try {
    for (path of paths) {
      const at = resolve(cwd, path);
      const existed = await stat(at).then(
        () => true,
        () => false,
      );
      const handle = await open(at, existed ? 'r+' : 'w');
      // Where the new file is: through a link to a file not there yet, not the link itself.
      opened.push({ path, handle, created: existed ? undefined : await realpath(at) });
    }
  } catch (error) {
    for (const file of opened) {
      await file.handle.close().catch(() => undefined);
      if (file.created) await unlink(file.created).catch(() => undefined);
    }
    throw fileProblem(error, cwd, path) ?? error;
  }
  for (const file of opened) await file.handle.truncate(0);
  return opened.map(({ path, handle }) => ({ path, handle }));
}
