import { realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError } from '@attnkit/errors';

/**
 * Writes `text` to `path` atomically: into a temporary file beside it, then renamed over it, so a
 * reader (or an interrupted run) sees the old file or the whole new one, never half of it. A path
 * whose folder is missing or not writable, or that names a folder, is an `InvalidArgumentError`
 * naming `--output`, the path and the system's reason; no temporary file is left behind. A symbolic
 * link is written through (the link stays; the file it names gets the output); a device, pipe or
 * socket at the path is refused, never replaced.
 *
 * @example
 * await writeOutputAtomically('out.json', `${JSON.stringify(result)}\n`, 'attnkit encode');
 */
export async function writeOutputAtomically(given: string, text: string, caller: string): Promise<void> {
  const refuse = (reason: string): never => {
    throw new InvalidArgumentError({ caller, argument: '--output', expected: 'a file path in an existing, writable folder', received: `${JSON.stringify(given)} (${reason})` });
  };
  // what is already at the path: a link is written through (the link stays, its file gets the output);
  // a device, pipe or socket is refused, never replaced by a regular file
  const existing = await stat(given).catch((error: { code?: string }) => (error.code === 'ENOENT' ? undefined : refuse(error.code ?? 'unreadable')));
  if (existing !== undefined && !existing.isFile() && !existing.isDirectory()) refuse('a device, pipe or socket, not a regular file; leave out --output to print to stdout');
  const path = existing?.isFile() === true ? await realpath(given) : given;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    refuse((error as { code?: string }).code ?? (error as Error).message);
  }
}
